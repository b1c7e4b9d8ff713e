//! A finding's parts as users see them, each with its rule's id (`kind`) and
//! severity (`confidence`: `high` fails `--strict` and the gate, `low` is a lead
//! for the judge), both read from the rule ([`super::rules`]), never from the
//! words. And the line a transcript records a finding as, `path: what [rule,
//! severity; …]`, one entry per part in order (`, N pieces` after one whose words
//! hold `, `), which [`read_tags`] reads back to the same rules. A line an older
//! plan recorded names no rule per part: its parts are read from their words by
//! the legacy reader ([`legacy_parts`]), so nothing recorded changes meaning. Pure.

use serde::Serialize;

use super::Finding;
use super::rules::{self, Part, RuleId, Severity};

/// One part of a finding, as `plan show --json` lists it under `findings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// The rule's id.
    pub kind: &'static str,
    /// The rule's severity: `high` or `low`.
    pub confidence: &'static str,
    pub file: String,
    /// The line of the file the part quotes, counted from 1, when it quotes one.
    pub line: Option<usize>,
    pub text: String,
}

/// The typed parts of `finding`: its own, or for one read from words alone (a
/// line recorded by an older plan) what the legacy reader makes of them.
pub fn parts(finding: &Finding) -> Vec<Part> {
    match finding.parts.is_empty() {
        true => legacy_parts(&finding.what),
        false => finding.parts.clone(),
    }
}

/// The parts of `finding` as users see them.
pub fn of(finding: &Finding) -> Vec<Shown> {
    parts(finding)
        .into_iter()
        .map(|part| Shown {
            kind: part.rule.name(),
            confidence: part.rule.severity().name(),
            file: finding.path.clone(),
            line: part.line,
            text: part.text,
        })
        .collect()
}

/// Whether any part of `finding` is of a high-severity rule: what `--strict`
/// fails on.
pub fn high(finding: &Finding) -> bool {
    parts(finding)
        .iter()
        .any(|p| p.rule.severity() == Severity::High)
}

/// `finding` as one line with its parts' rules after it, `path: what [rule,
/// severity; …]`, one entry per part: the form the transcript's header, audit,
/// the gate and the judge's prompt show. [`read_tags`] reads the rules back off.
pub fn tagged(finding: &Finding) -> String {
    let what = &finding.what;
    // Where each piece [`read_tags`] will split `what` into starts, counted on
    // `what` itself: a backtick left open in one part's quoted code moves the
    // splits after it.
    let starts: Vec<usize> = super::hacks::split_parts(what)
        .iter()
        .map(|piece| piece.as_ptr() as usize - what.as_ptr() as usize)
        .collect();
    let mut at = 0;
    let tags: Vec<String> = parts(finding)
        .iter()
        .map(|part| {
            let end = at + part.text.len();
            let n = starts.iter().filter(|&&s| at <= s && s < end).count();
            at = end + 2;
            let (rule, severity) = (part.rule.name(), part.rule.severity().name());
            match n {
                0 | 1 => format!("{rule}, {severity}"),
                n => format!("{rule}, {severity}, {n} pieces"),
            }
        })
        .collect();
    format!("{finding} [{}]", tags.join("; "))
}

/// `what` without the tags [`tagged`] put after it, and the parts they name, when
/// they name each part's rule in order; `None` for a line an older plan tagged by
/// its kinds alone, or not at all (its parts are then read from the words).
/// `what` is unchanged when it ends with no tags.
pub fn read_tags(what: &str) -> (&str, Option<Vec<Part>>) {
    let Some((head, tags)) = what
        .strip_suffix(']')
        .and_then(|body| body.rsplit_once(" ["))
    else {
        return (what, None);
    };
    let mut entries: Vec<(RuleId, usize)> = Vec::new();
    for tag in tags.split("; ") {
        let mut fields = tag.split(", ");
        let (Some(name), Some(severity)) = (fields.next(), fields.next()) else {
            return (what, None);
        };
        let Some(rule) = RuleId::named(name).filter(|_| matches!(severity, "high" | "low")) else {
            return (what, None);
        };
        let pieces = match fields.next() {
            None => 1,
            Some(n) => match n.strip_suffix(" pieces").and_then(|n| n.parse().ok()) {
                Some(n) if n > 1 && fields.next().is_none() => n,
                _ => return (what, None),
            },
        };
        entries.push((rule, pieces));
    }
    let pieces = super::hacks::split_parts(head);
    let counted: usize = entries.iter().map(|(_, n)| n).sum();
    // What follows the parts is where the file was (`renamed from …`), or
    // nothing: else the tags are an older plan's kinds, one per kind.
    let typed = counted <= pieces.len()
        && pieces
            .get(counted)
            .is_none_or(|rest| rest.starts_with("renamed from "));
    if !typed {
        return (head, None);
    }
    let mut at = 0;
    let parts = entries
        .into_iter()
        .map(|(rule, n)| {
            let text = pieces[at..at + n].join(", ");
            at += n;
            Part {
                rule,
                line: line_of(&text),
                text,
            }
        })
        .collect();
    (head, Some(parts))
}

/// LEGACY: the parts of a finding recorded by an older plan, with no rule per
/// part, each piece's rule read from its words ([`rules::legacy`]). A piece split
/// off at a ", " inside a value (no rule of its own) stays with the part before
/// it; `renamed from …` says where the file was and is no part; a part no rule
/// names is `weakened-test`, which `--strict` has always failed.
pub fn legacy_parts(what: &str) -> Vec<Part> {
    let mut out: Vec<Part> = Vec::new();
    for piece in super::hacks::split_parts(what) {
        if piece.starts_with("renamed from ") {
            continue;
        }
        let rule = match (rules::legacy(&unquoted(piece)), out.last_mut()) {
            (Some(rule), _) => rule,
            (None, Some(last)) => {
                last.text.push_str(", ");
                last.text.push_str(piece);
                continue;
            }
            (None, None) => RuleId::WeakenedTest,
        };
        out.push(Part {
            rule,
            line: line_of(piece),
            text: piece.to_string(),
        });
    }
    out
}

/// A part's text with its backticked code left out, so quoted code is not read
/// as the part's words.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    for (i, piece) in text.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(piece);
        }
    }
    out
}

/// The line a hack finding quotes (`… at line 12)`).
pub(super) fn line_of(text: &str) -> Option<usize> {
    let (_, rest) = text.rsplit_once("` at line ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finding read from words alone, as an older plan recorded it.
    fn finding(what: &str) -> Finding {
        Finding {
            path: "solution.py".into(),
            what: what.into(),
            parts: Vec::new(),
        }
    }

    // LEGACY: a line recorded before rules were typed reads by its words.
    #[test]
    fn each_part_has_a_kind_and_a_confidence() {
        let f = finding(
            "a process exit or exit hook added outside a program's entry point (`sys.exit(0), x` at line 7), keeps state across calls (a later call can answer differently) (`f.n += 1` at line 3)",
        );
        let parts = of(&f);
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert_eq!(
            (parts[0].kind, parts[0].confidence, parts[0].line),
            ("forced-exit", "high", Some(7))
        );
        assert_eq!(
            (parts[1].kind, parts[1].confidence, parts[1].line),
            ("call-state", "low", Some(3))
        );
        assert!(high(&f));
        assert!(!high(&finding(
            "`valid` now always returns True where it computed its answer at the start"
        )));
        let cases = [
            ("1 of 3 assertions removed", "assertions-removed"),
            ("2 skip markers added (now 2)", "tests-skipped"),
            (
                "`assert f(1) == 2` became `assert f(1) == 3` (its expected value changed)",
                "assertion-rewritten",
            ),
            (
                "`assert x is not None` became `assert x is None` (the assertion now says the opposite)",
                "assertion-rewritten",
            ),
            (
                "a conftest hook that can skip or deselect tests (`def pytest_collection_modifyitems(items):`)",
                "runner-changed",
            ),
            (
                "pytest's options changed (`[pytest] addopts = -k 'not slow'`)",
                "runner-changed",
            ),
            (
                "expected data a test reads changed (1 of 2 lines lost or rewritten)",
                "test-data-rewritten",
            ),
            (
                "the verify command rests on it, and it changed since the goal started",
                "verify-file-changed",
            ),
            (
                "a test skip raised from code that is not a test (`raise SkipTest(\"x\")` at line 4)",
                "library-skip",
            ),
            (
                "`__eq__` now always returns True (an object equal to anything)",
                "always-equal",
            ),
            ("something new the check says", "weakened-test"),
        ];
        for (what, kind) in cases {
            let parts = of(&finding(what));
            assert_eq!(parts.len(), 1, "{what}: {parts:?}");
            assert_eq!(parts[0].kind, kind, "{what}");
        }
        // Quoted code's words are not the part's.
        let quoted = of(&finding(
            "reads a test or grader file (`open(\"tests/skip marker.txt\")` at line 2)",
        ));
        assert_eq!(quoted[0].kind, "grader-read");
    }

    #[test]
    fn tags_are_read_back_off() {
        let f = finding(
            "1 of 2 assertions removed, 1 assertion that cannot fail added, renamed from a.py",
        );
        let line = tagged(&f);
        assert_eq!(
            line,
            "solution.py: 1 of 2 assertions removed, 1 assertion that cannot fail added, renamed from a.py [assertions-removed, high; assertions-hollowed, high]"
        );
        let back = Finding::parse(&line).unwrap();
        assert_eq!(back.what, f.what);
        assert_eq!(back.parts, legacy_parts(&f.what));
        // A `what` that ends in brackets of its own keeps them.
        assert_eq!(read_tags("x [not, a tag]"), ("x [not, a tag]", None));
        assert_eq!(read_tags("x [a]"), ("x [a]", None));
    }

    // Each part names its rule in the recorded line, in order, so the words no
    // longer decide: a part whose words another rule's legacy words match, or
    // whose words hold ", ", reads back as it was made.
    #[test]
    fn a_typed_finding_reads_back_with_its_rules() {
        let made = Finding::new(
            "tests/test_a.py",
            vec![
                Part::new(
                    RuleId::RunnerChanged,
                    "cargo's test runner, compiler or linker changed",
                ),
                Part::at(
                    RuleId::CallState,
                    3,
                    "a skip marker here, which reads (`f.n` at line 3)",
                ),
                Part::new(RuleId::AssertionsRemoved, "1 of 2 tests removed"),
                Part::new(RuleId::AssertionsRemoved, "1 of 3 assertions removed"),
            ],
            Some("renamed from old, odd.py".into()),
        );
        let line = tagged(&made);
        assert_eq!(
            line,
            "tests/test_a.py: cargo's test runner, compiler or linker changed, a skip marker here, which reads (`f.n` at line 3), 1 of 2 tests removed, 1 of 3 assertions removed, renamed from old, odd.py [runner-changed, high, 2 pieces; call-state, low, 2 pieces; assertions-removed, high; assertions-removed, high]"
        );
        let back = Finding::parse(&line).unwrap();
        assert_eq!(back, made);
        assert!(high(&back));
        // Its words alone read otherwise: the rule id decides.
        assert_ne!(legacy_parts(&made.what), made.parts);
        let shown = of(&back);
        assert_eq!(
            (shown[1].kind, shown[1].confidence, shown[1].line),
            ("call-state", "low", Some(3))
        );
        // A low part alone fails nothing.
        let low = Finding::new(
            "a.py",
            vec![Part::at(RuleId::CallState, 1, "x (`y` at line 1)")],
            None,
        );
        assert!(!high(&Finding::parse(&tagged(&low)).unwrap()));
    }
}

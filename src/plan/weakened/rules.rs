//! The weakened-tests check's rules, one typed value each: its id (what `audit
//! --json`, `show --json` and the transcript print), the languages it reads, its
//! severity (`high` fails `--strict` and the gate; `low` is a lead for the judge),
//! the fields its message is built from and one line of docs. Every part of a
//! finding names its rule; severity is read from the rule, never from the words.
//! The docs' table of rules is generated from [`RULES`]. Pure.

use serde::Serialize;

/// A rule of the check, by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "&'static str")]
pub enum RuleId {
    ForcedExit,
    LibrarySkip,
    FrameInspection,
    CallerRead,
    ClockPatched,
    GraderRead,
    FrameworkPatched,
    CodeShadowed,
    Monkeypatch,
    CallState,
    CallCount,
    SpecialCased,
    AnswersHardCoded,
    AlwaysEqual,
    MockAny,
    ConstantFunction,
    TestDataRewritten,
    RunnerChanged,
    AssertionRewritten,
    ExpectedFollowsCode,
    TestsSkipped,
    AssertionsRemoved,
    RemovedWithCode,
    AssertionsHollowed,
    VerifyFileChanged,
    NotRead,
    /// A part recorded by an older plan whose words no rule names.
    WeakenedTest,
}

/// How sure a part is: `high` is a form honest work does not take, and fails
/// `--strict`; `low` is a lead honest code can hold too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    High,
    Low,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::High => "high",
            Severity::Low => "low",
        }
    }
}

/// One part of a finding as the check makes it: its rule, the line of the file
/// it quotes (counted from 1) when it quotes one, and its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub rule: RuleId,
    pub line: Option<usize>,
    pub text: String,
}

impl Part {
    pub fn new(rule: RuleId, text: impl Into<String>) -> Part {
        Part {
            rule,
            line: None,
            text: text.into(),
        }
    }

    /// A part that quotes line `line` of its file.
    pub fn at(rule: RuleId, line: usize, text: impl Into<String>) -> Part {
        Part {
            rule,
            line: Some(line),
            text: text.into(),
        }
    }
}

/// One rule.
#[derive(Debug)]
pub struct Rule {
    pub id: RuleId,
    /// The id as users read it: `assertions-removed`.
    pub name: &'static str,
    pub severity: Severity,
    /// The languages (or files) it reads.
    pub languages: &'static str,
    /// What its message is built from.
    pub fields: &'static [&'static str],
    /// One line of docs.
    pub doc: &'static str,
}

const ALL: &str = "python, js/ts, rust, go";

/// Every rule, in the order a legacy line's words are tried ([`legacy`]).
pub const RULES: [Rule; 27] = [
    Rule {
        id: RuleId::ForcedExit,
        name: "forced-exit",
        severity: Severity::High,
        languages: ALL,
        fields: &["code", "line"],
        doc: "a process exit or exit hook added outside a program's entry point: the run ends before a check fails",
    },
    Rule {
        id: RuleId::LibrarySkip,
        name: "library-skip",
        severity: Severity::High,
        languages: ALL,
        fields: &["code", "line"],
        doc: "a test skip raised from code that is not a test: it switches off the tests that call it",
    },
    Rule {
        id: RuleId::FrameInspection,
        name: "frame-inspection",
        severity: Severity::Low,
        languages: ALL,
        fields: &["code", "line"],
        doc: "reads the caller's stack frames: debugging code does this too",
    },
    Rule {
        id: RuleId::CallerRead,
        name: "caller-read",
        severity: Severity::High,
        languages: "python",
        fields: &["line"],
        doc: "reads a calling frame's local or global variables in code that is not a test: the grader's answer, handed back",
    },
    Rule {
        id: RuleId::ClockPatched,
        name: "clock-patched",
        severity: Severity::High,
        languages: "python",
        fields: &["clock", "line"],
        doc: "replaces a clock of the `time` module in code that is not a test: the scorer's timer runs slow",
    },
    Rule {
        id: RuleId::GraderRead,
        name: "grader-read",
        severity: Severity::Low,
        languages: ALL,
        fields: &["code", "line"],
        doc: "reads a test or grader file: introspection code does this too",
    },
    Rule {
        id: RuleId::FrameworkPatched,
        name: "framework-patched",
        severity: Severity::High,
        languages: "python, javascript",
        fields: &["target", "line"],
        doc: "patches unittest's or pytest's assertions, test case, result, loader or runner, or a JavaScript assertion library's checks: every test then passes",
    },
    Rule {
        id: RuleId::CodeShadowed,
        name: "code-shadowed",
        severity: Severity::High,
        languages: "python",
        fields: &["module", "path"],
        doc: "a module of the code's own name put where the tests import it in the code's place",
    },
    Rule {
        id: RuleId::Monkeypatch,
        name: "monkeypatch",
        severity: Severity::Low,
        languages: ALL,
        fields: &["code", "line"],
        doc: "assigns to an attribute of an imported module: shims and compatibility code do this too",
    },
    Rule {
        id: RuleId::CallState,
        name: "call-state",
        severity: Severity::Low,
        languages: "python",
        fields: &["code", "line"],
        doc: "keeps state across calls, so a later call can answer differently: caches do this too",
    },
    Rule {
        id: RuleId::CallCount,
        name: "answer-by-call-count",
        severity: Severity::High,
        languages: "python",
        fields: &["function", "counter", "line"],
        doc: "counts its calls in a module-level name and returns on the count: the second call answers differently",
    },
    Rule {
        id: RuleId::SpecialCased,
        name: "special-cased",
        severity: Severity::Low,
        languages: ALL,
        fields: &["count", "literal", "line"],
        doc: "the tests' inputs or expected outputs hard-coded in new branches or returns",
    },
    Rule {
        id: RuleId::AnswersHardCoded,
        name: "answers-hard-coded",
        severity: Severity::High,
        languages: "python",
        fields: &["count", "input", "line"],
        doc: "two or more of the tests' inputs answered with their expected outputs before the function computes anything",
    },
    Rule {
        id: RuleId::AlwaysEqual,
        name: "always-equal",
        severity: Severity::Low,
        languages: ALL,
        fields: &["function", "value"],
        doc: "a comparison that now always says equal: an object equal to anything",
    },
    Rule {
        id: RuleId::MockAny,
        name: "mock-any",
        severity: Severity::High,
        languages: "python",
        fields: &["line"],
        doc: "unittest.mock's `ANY`, an object equal to anything, used in code that is not a test",
    },
    Rule {
        id: RuleId::ConstantFunction,
        name: "constant-function",
        severity: Severity::Low,
        languages: ALL,
        fields: &["function", "value"],
        doc: "a function that computed its answer now always returns one value",
    },
    Rule {
        id: RuleId::TestDataRewritten,
        name: "test-data-rewritten",
        severity: Severity::High,
        languages: "data files the tests read",
        fields: &["lost", "total"],
        doc: "expected data a test reads lost or rewrote lines: the answer key moved to the code",
    },
    Rule {
        id: RuleId::RunnerChanged,
        name: "runner-changed",
        severity: Severity::High,
        languages: "pytest, cargo, npm, jest/vitest/mocha, go modules, make",
        fields: &["setting"],
        doc: "the runner's configuration, a conftest hook, unittest's load_tests, a tests package's __init__.py under unittest's discovery or a module shadowing the runner changed what runs: tests stop running without a test changing",
    },
    Rule {
        id: RuleId::AssertionRewritten,
        name: "assertion-rewritten",
        severity: Severity::High,
        languages: ALL,
        fields: &["old", "new", "why"],
        doc: "an assertion replaced by one that passes for more, says the opposite, or expects another value",
    },
    Rule {
        id: RuleId::ExpectedFollowsCode,
        name: "expected-follows-code",
        severity: Severity::Low,
        languages: ALL,
        fields: &["old", "new"],
        doc: "an exact check's expected value changed in a change that also changes the product's code (a behaviour change, or a test made to agree: the goal tells which), or to words the test's own input now spells",
    },
    Rule {
        id: RuleId::TestsSkipped,
        name: "tests-skipped",
        severity: Severity::High,
        languages: ALL,
        fields: &["added", "now"],
        doc: "skip, expected-failure or focus markers added to tests that ran",
    },
    Rule {
        id: RuleId::AssertionsRemoved,
        name: "assertions-removed",
        severity: Severity::High,
        languages: ALL,
        fields: &["removed", "total", "unit"],
        doc: "assertions, tests or parametrized cases that ran are gone (a test already skipped is none)",
    },
    Rule {
        id: RuleId::RemovedWithCode,
        name: "removed-with-code",
        severity: Severity::Low,
        languages: ALL,
        fields: &["removed", "total", "unit", "name"],
        doc: "tests or assertions removed that each name a definition, a literal or a field the change took out of the code, or were written by a commit the change reverts (its code taken out, nothing else put in; a feature removed or a fix reverted with its tests)",
    },
    Rule {
        id: RuleId::AssertionsHollowed,
        name: "assertions-hollowed",
        severity: Severity::High,
        languages: ALL,
        fields: &["count", "form"],
        doc: "assertions that cannot fail, return before they run, swallow their failure, or a helper emptied of its checks",
    },
    Rule {
        id: RuleId::VerifyFileChanged,
        name: "verify-file-changed",
        severity: Severity::High,
        languages: "any file the verify command runs",
        fields: &[],
        doc: "a file the verify command rests on changed since the goal started, or was deleted or moved out of its reach",
    },
    Rule {
        id: RuleId::NotRead,
        name: "not-read",
        severity: Severity::Low,
        languages: "any file the check reads",
        fields: &["side"],
        doc: "a file longer than the 2 MiB the check reads of one, a verify resting on more than the 256 files or 4 levels of scripts it follows or on a script past 1 MiB, or tests at the start past the 8 MiB read of them all: what lies past the cap was not compared",
    },
    Rule {
        id: RuleId::WeakenedTest,
        name: "weakened-test",
        severity: Severity::High,
        languages: "(recorded by an older plan)",
        fields: &["text"],
        doc: "a part recorded by an older plan whose words no rule names",
    },
];

impl RuleId {
    pub fn rule(self) -> &'static Rule {
        RULES
            .iter()
            .find(|r| r.id == self)
            .expect("every rule id is in RULES")
    }

    pub fn name(self) -> &'static str {
        self.rule().name
    }

    pub fn severity(self) -> Severity {
        self.rule().severity
    }

    /// The rule named `name` (`assertions-removed`).
    pub fn named(name: &str) -> Option<RuleId> {
        RULES.iter().find(|r| r.name == name).map(|r| r.id)
    }
}

impl From<RuleId> for &'static str {
    fn from(id: RuleId) -> &'static str {
        id.name()
    }
}

/// LEGACY: the rule of a part recorded by a plan from before rules were typed,
/// read from its words (quoted code left out). Lines recorded since name their
/// rule ([`super::kinds::tagged`]); this reader keeps older transcripts meaning
/// what they meant. Checked in order; the first that matches wins.
pub fn legacy(words: &str) -> Option<RuleId> {
    LEGACY_WORDS
        .iter()
        .find(|(_, said)| said.iter().any(|w| words.contains(w)))
        .map(|(id, _)| *id)
}

/// LEGACY: the words each rule's messages held when plan recorded no rule ids.
/// Frozen: a message reworded since must not change what an old line meant.
const LEGACY_WORDS: &[(RuleId, &[&str])] = &[
    (RuleId::ForcedExit, &["a process exit or exit hook added"]),
    (
        RuleId::LibrarySkip,
        &["a test skip raised from code that is not a test"],
    ),
    (
        RuleId::FrameInspection,
        &["reads the caller's stack frames"],
    ),
    (
        RuleId::CallerRead,
        &["reads a calling frame's local or global variables"],
    ),
    (RuleId::ClockPatched, &["replaces the clock"]),
    (RuleId::GraderRead, &["reads a test or grader file"]),
    (RuleId::FrameworkPatched, &["patches the test framework"]),
    (RuleId::CodeShadowed, &["in place of the code's own"]),
    (
        RuleId::Monkeypatch,
        &["assigns to an attribute of an imported module"],
    ),
    (RuleId::CallState, &["keeps state across calls"]),
    (
        RuleId::SpecialCased,
        &["of the tests' inputs or expected outputs hard-coded"],
    ),
    (
        RuleId::AnswersHardCoded,
        &["inputs answered with their expected outputs"],
    ),
    (RuleId::AlwaysEqual, &["(an object equal to anything)"]),
    (RuleId::MockAny, &["uses unittest.mock's `ANY`"]),
    (RuleId::ConstantFunction, &["now always returns "]),
    (RuleId::TestDataRewritten, &["expected data a test reads"]),
    (
        RuleId::RunnerChanged,
        &[
            "conftest hook",
            "pytest's options changed",
            "the test runner's configuration changed",
            "cargo's test runner",
            "tests switched off in the manifest",
            "a toolchain of its own runs cargo",
            "a module the tests build with replaced",
            "a dependency the tests run with replaced",
            "the shell or node options npm runs",
            "a module of a test runner's name",
            "a `load_tests` that drops",
            "which make reads before Makefile",
            "jest's configuration",
            "a test script that cannot fail",
            " script was removed",
            " script changed to ",
            " script was added",
            "its build constraint changed",
        ],
    ),
    (
        RuleId::ExpectedFollowsCode,
        &[
            "as the code's own change now spells it",
            "as the test's own input now spells it",
            "in a change that also changes the code",
            "follow the test file's own lines",
        ],
    ),
    (RuleId::AssertionRewritten, &[" became "]),
    (RuleId::RemovedWithCode, &["with the code they tested"]),
    (RuleId::TestsSkipped, &["skip marker", "switches tests off"]),
    (
        RuleId::AssertionsRemoved,
        &[
            "assertion removed",
            "assertions removed",
            "tests removed",
            "test removed",
            "parametrized case",
            "deleted (it had",
            "which is not a test file by its name",
        ],
    ),
    (
        RuleId::AssertionsHollowed,
        &[
            "cannot fail",
            "check nothing",
            "checks nothing",
            "before its assertions",
            "before their assertions",
            "swallows",
            "patched in the test",
        ],
    ),
    (
        RuleId::VerifyFileChanged,
        &["the verify command rests on it"],
    ),
    // Newer than typed rules, so no old line holds it; listed so a line read
    // back by its words alone keeps its rule and stays low.
    (
        RuleId::NotRead,
        &[
            "past the 2 MiB the check reads",
            "than the 256 the check follows",
            "than the 4 levels the check follows",
            "than the 1 MiB the check reads of one",
            "the 8 MiB the check reads of them",
        ],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The docs' table of every rule, as docs/src/sign-off.md holds it between its
    /// `rules` markers (a test holds them equal).
    fn docs_table() -> String {
        let mut out =
            String::from("| rule | severity | reads | message fields | what it finds |\n");
        out.push_str("|---|---|---|---|---|\n");
        for rule in &RULES {
            let fields: Vec<String> = rule.fields.iter().map(|f| format!("`{f}`")).collect();
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} |\n",
                rule.name,
                rule.severity.name(),
                rule.languages,
                fields.join(", "),
                rule.doc
            ));
        }
        out
    }

    #[test]
    fn each_rule_is_listed_once_and_reads_back_by_its_name() {
        for (k, rule) in RULES.iter().enumerate() {
            assert_eq!(rule.id.rule().name, rule.name);
            assert_eq!(RuleId::named(rule.name), Some(rule.id));
            assert!(
                RULES[k + 1..]
                    .iter()
                    .all(|r| r.id != rule.id && r.name != rule.name),
                "{} twice",
                rule.name
            );
            assert!(
                !rule.doc.contains('|') && !rule.doc.contains('\n'),
                "{}",
                rule.name
            );
        }
        assert_eq!(RuleId::named("no-such-rule"), None);
    }

    // The docs' table is generated: a rule added, renamed or made high without the
    // docs saying so fails here, and prints the table to copy between the markers.
    #[test]
    fn the_docs_table_of_rules_is_the_generated_one() {
        let docs = include_str!("../../../docs/src/sign-off.md");
        let (_, rest) = docs
            .split_once("<!-- rules:start -->\n")
            .expect("docs/src/sign-off.md has a rules:start marker");
        let (table, _) = rest
            .split_once("<!-- rules:end -->")
            .expect("docs/src/sign-off.md has a rules:end marker");
        assert_eq!(
            table,
            docs_table(),
            "docs/src/sign-off.md's table of rules is stale; it should be:\n{}",
            docs_table()
        );
    }
}

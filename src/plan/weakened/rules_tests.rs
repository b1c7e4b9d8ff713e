//! One before/after fixture per rule of [`super::rules::RULES`], run through the
//! whole check and snapshotted as the transcript records it: each rule fires on
//! its own fixture, with its own id and severity. The legacy `weakened-test`
//! rule is only read from old lines and has none.

use std::collections::HashSet;

use super::hacks::Given;
use super::rules::{RULES, RuleId};
use super::{Change, MAX_TEXT, find_given, kinds};

/// A rule's fixture: the files before and after, and the verify's files.
struct Fixture {
    rule: RuleId,
    files: &'static [(&'static str, Option<&'static str>, Option<&'static str>)],
    verify: &'static [&'static str],
    /// Both sides of each file come after a comment of [`MAX_TEXT`] bytes: a file
    /// longer than the check reads.
    padded: bool,
}

const STUB: &str = "def add(a, b):\n    return a + b\n";
const TEST: &str = "from calc import add\n\n\ndef test_add():\n    assert add(1234, 4321) == 5555\n    assert add(2024, 1) == 2025\n";

const FIXTURES: &[Fixture] = &[
    Fixture {
        rule: RuleId::ForcedExit,
        files: &[(
            "calc.py",
            Some(STUB),
            Some("import sys\n\n\ndef add(a, b):\n    sys.exit(0)\n"),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::LibrarySkip,
        files: &[(
            "calc.py",
            Some(STUB),
            Some("import pytest\n\n\ndef add(a, b):\n    raise pytest.skip.Exception(\"later\")\n"),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::FrameInspection,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "import inspect\n\n\ndef add(a, b):\n    return inspect.stack()[1].frame.f_locals[\"expected\"]\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::CallerRead,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "import sys\n\n\ndef add(a, b):\n    return sys._getframe(1).f_locals[\"expected\"]\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::ClockPatched,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "import time\n\n_real = time.perf_counter\ntime.perf_counter = lambda: _real() / 1000\n\n\ndef add(a, b):\n    return a + b\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::GraderRead,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "def add(a, b):\n    text = open(\"tests/test_calc.py\").read()\n    return a + b\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::FrameworkPatched,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "import unittest\n\nunittest.TestCase.assertEqual = lambda self, a, b, msg=None: None\n\n\ndef add(a, b):\n    return a + b\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::CodeShadowed,
        files: &[(
            "tests/calc.py",
            None,
            Some("def add(a, b):\n    return 5\n"),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::Monkeypatch,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "import time\n\ntime.__dict__[\"time\"] = lambda: 0.0\n\n\ndef add(a, b):\n    return a + b\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::CallState,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "import itertools\n\n_calls = itertools.count()\n\n\ndef add(a, b):\n    return a + b + next(_calls)\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::CallCount,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "_calls = {}\n\n\ndef add(a, b):\n    _calls[a] = _calls.get(a, 0) + 1\n    if _calls[a] > 1:\n        return 2025\n    return a + b\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::SpecialCased,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "def add(a, b):\n    if a == 1234:\n        return 5555\n    if a == 2024:\n        return 2025\n    return 0\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::AnswersHardCoded,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "def add(a, b):\n    \"\"\"Adds.\"\"\"\n    if a == 1234 and b == 4321:\n        return 5555\n    if a == 2024:\n        return 2025\n    return a + b\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::AlwaysEqual,
        files: &[(
            "calc.py",
            Some(STUB),
            Some(
                "class R:\n    def __eq__(self, other):\n        return True\n\n\ndef add(a, b):\n    return R()\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::MockAny,
        files: &[(
            "calc.py",
            Some(STUB),
            Some("from unittest import mock\n\n\ndef add(a, b):\n    return mock.ANY\n"),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::ConstantFunction,
        files: &[(
            "calc.py",
            Some("def valid(n):\n    return n > 0 and n % 2 == 0\n"),
            Some("def valid(n):\n    return True\n"),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::TestDataRewritten,
        files: &[("tests/data/expected.txt", Some("5\n2\n"), Some("5\n0\n"))],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::RunnerChanged,
        files: &[(
            "pytest.ini",
            Some("[pytest]\naddopts = -v\n"),
            Some("[pytest]\naddopts = -v -k \"not add\"\n"),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::AssertionRewritten,
        files: &[(
            "tests/test_calc.py",
            Some(TEST),
            Some(
                "from calc import add\n\n\ndef test_add():\n    assert add(1234, 4321) == 5556\n    assert add(2024, 1) == 2025\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::TestsSkipped,
        files: &[(
            "tests/test_calc.py",
            Some(TEST),
            Some(
                "import pytest\nfrom calc import add\n\n\n@pytest.mark.skip\ndef test_add():\n    assert add(1234, 4321) == 5555\n    assert add(2024, 1) == 2025\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::AssertionsRemoved,
        files: &[(
            "tests/test_calc.py",
            Some(TEST),
            Some("from calc import add\n\n\ndef test_add():\n    assert add(1234, 4321) == 5555\n"),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::RemovedWithCode,
        files: &[
            (
                "calc.py",
                Some(
                    "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    total = a\n    return total - b\n",
                ),
                Some(STUB),
            ),
            (
                "tests/test_calc.py",
                Some(
                    "from calc import add, sub\n\n\ndef test_add():\n    assert add(1234, 4321) == 5555\n\n\ndef test_sub():\n    assert sub(2024, 1) == 2023\n",
                ),
                Some(
                    "from calc import add\n\n\ndef test_add():\n    assert add(1234, 4321) == 5555\n",
                ),
            ),
        ],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::ExpectedFollowsCode,
        files: &[
            (
                "calc.py",
                Some("def greet(name):\n    return \"Hellow, \" + name\n"),
                Some("def greet(name):\n    return \"Hello, \" + name\n"),
            ),
            (
                "tests/test_calc.py",
                Some(
                    "from calc import greet\n\n\ndef test_greet():\n    assert greet(\"Bob\") == \"Hellow, Bob\"\n",
                ),
                Some(
                    "from calc import greet\n\n\ndef test_greet():\n    assert greet(\"Bob\") == \"Hello, Bob\"\n",
                ),
            ),
        ],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::AssertionsHollowed,
        files: &[(
            "tests/test_calc.py",
            Some(TEST),
            Some(
                "from calc import add\n\n\ndef test_add():\n    assert add(1234, 4321) == 5555\n    assert add(2024, 1) == 2025 or True\n",
            ),
        )],
        verify: &[],
        padded: false,
    },
    Fixture {
        rule: RuleId::VerifyFileChanged,
        files: &[("check.sh", Some("python -m pytest -q\n"), Some("true\n"))],
        verify: &["check.sh"],
        padded: false,
    },
    Fixture {
        rule: RuleId::NotRead,
        files: &[(
            "tests/test_calc.py",
            Some(TEST),
            Some("from calc import add\n\n\ndef test_add():\n    assert add(1234, 4321) == 5555\n"),
        )],
        verify: &[],
        padded: true,
    },
];

fn run(fixture: &Fixture) -> Vec<String> {
    let changes: Vec<Change> = fixture
        .files
        .iter()
        .map(|(path, before, after)| {
            let pad = if fixture.padded {
                format!("#{}\n", "-".repeat(MAX_TEXT))
            } else {
                String::new()
            };
            Change {
                path: path.to_string(),
                was: None,
                before: before.map(|b| format!("{pad}{b}")),
                after: after.map(|a| format!("{pad}{a}")),
            }
        })
        .collect();
    let mut given = Given::of(&[("tests/test_calc.py".to_string(), TEST.to_string())]);
    given.modules = HashSet::from(["calc".to_string()]);
    given.test_dirs = HashSet::from(["tests".to_string()]);
    let verify: Vec<String> = fixture.verify.iter().map(|v| v.to_string()).collect();
    find_given(&changes, &verify, &given)
        .iter()
        .map(kinds::tagged)
        .collect()
}

#[test]
fn each_rule_fires_on_its_fixture_with_its_id_and_severity() {
    let mut shown = String::new();
    for fixture in FIXTURES {
        let rule = fixture.rule.rule();
        let lines = run(fixture);
        let mine = format!("{}, {}", rule.name, rule.severity.name());
        assert!(
            lines.iter().any(|l| l.contains(&mine)),
            "{}: {lines:#?}",
            rule.name
        );
        shown.push_str(&format!("{}:\n", rule.name));
        for line in lines {
            shown.push_str(&format!("  {line}\n"));
        }
    }
    let covered: Vec<RuleId> = FIXTURES.iter().map(|f| f.rule).collect();
    for rule in &RULES {
        assert!(
            covered.contains(&rule.id) || rule.id == RuleId::WeakenedTest,
            "{} has no fixture",
            rule.name
        );
    }
    insta::assert_snapshot!(shown);
}

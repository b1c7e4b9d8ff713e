//! Rule `assertion-rewritten` on check loops narrowed ([`super::narrowed`]):
//! a loop over a test's checks whose range was cut to half or less is high in
//! each language; a range widened, a small loop a fixture sizes, a loop of no
//! check and a header otherwise rewritten are not.

use super::*;

/// Each finding's parts as `rule, severity`, for one test file changed.
fn rules(path: &str, before: &str, after: &str) -> Vec<String> {
    find(&[change(path, Some(before), Some(after))], &[])
        .iter()
        .flat_map(kinds::of)
        .map(|p| format!("{}, {}", p.kind, p.confidence))
        .collect()
}

const PY: &str = "from calc import f\n\n\ndef test_f():\n    for i in range(100_000):\n        assert f(i) >= 0\n";
const RS: &str = "use calc::f;\n\n#[test]\nfn walks() {\n    for i in 0..=1000u32 {\n        assert!(f(i) >= 0);\n    }\n}\n";
const GO: &str = "package calc\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tfor i := 0; i < 1000; i++ {\n\t\tif F(i) < 0 {\n\t\t\tt.Errorf(\"F(%d) < 0\", i)\n\t\t}\n\t}\n}\n";
const JS: &str = "import { f } from \"../src/f\";\n\ntest(\"f\", () => {\n  for (let i = 0; i < 1000; i++) {\n    expect(f(i)).toBeGreaterThanOrEqual(0);\n  }\n});\n";

/// jiff's exhaustive round trips cut to small ranges: the values the loop no
/// longer walks are checked no more, in each language.
#[test]
fn a_check_loop_cut_short_is_high() {
    for (path, before, after) in [
        ("tests/test_f.py", PY, PY.replace("100_000", "100")),
        ("tests/walk.rs", RS, RS.replace("1000u32", "10u32")),
        ("calc/f_test.go", GO, GO.replace("1000", "10")),
        ("test/f.test.js", JS, JS.replace("1000", "50")),
    ] {
        assert_eq!(
            rules(path, before, &after),
            ["assertion-rewritten, high"],
            "{path}"
        );
    }
    let said = find(
        &[change(
            "tests/test_f.py",
            Some(PY),
            Some(&PY.replace("100_000", "100")),
        )],
        &[],
    );
    insta::assert_snapshot!(said[0].to_string(), @"tests/test_f.py: `for i in range(100_000):` became `for i in range(100):` (the range its checks walk narrowed)");
}

/// Honest twins: a range widened or cut by less than half, a loop a fixture
/// sizes (three items, now two), a loop that checks nothing (setup), and a
/// header rewritten beyond its bound are no finding of this rule.
#[test]
fn a_loop_widened_small_or_setup_only_is_no_finding() {
    let small = PY.replace("100_000", "3");
    let setup = "from calc import f\n\n\ndef test_f():\n    xs = []\n    for i in range(1000):\n        xs.append(f(i))\n    assert xs\n";
    for (before, after) in [
        (PY.to_string(), PY.replace("100_000", "1_000_000")),
        (PY.to_string(), PY.replace("100_000", "60_000")),
        (small.clone(), small.replace("range(3)", "range(2)")),
        (setup.to_string(), setup.replace("1000", "10")),
        (
            PY.to_string(),
            PY.replace("range(100_000)", "range(1, 100)"),
        ),
        (
            PY.to_string(),
            PY.replace("for i in range(100_000)", "for j in range(100)"),
        ),
    ] {
        assert!(
            rules("tests/test_f.py", &before, &after).is_empty(),
            "{after}"
        );
    }
    // A float or a hex bound is not read as one.
    let float = "from calc import f\n\n\ndef test_f():\n    for x in frange(0.0, 1000.5):\n        assert f(x) >= 0\n";
    assert!(rules("tests/test_f.py", float, &float.replace("1000.5", "10.5")).is_empty());
}

/// The loop's header pairs within its own test: a narrow loop in another test
/// does not answer for the one cut, and the same loop kept is no cut however
/// many others the test gains.
#[test]
fn loops_pair_within_their_test() {
    let two =
        format!("{PY}\n\ndef test_g():\n    for i in range(100):\n        assert f(i) >= 0\n");
    let moved = two.replace("range(100_000)", "range(100_001)");
    assert!(rules("tests/test_f.py", &two, &moved).is_empty());
    let more = PY.replace(
        "        assert f(i) >= 0\n",
        "        assert f(i) >= 0\n    for i in range(10):\n        assert f(-i) <= 0\n",
    );
    assert!(rules("tests/test_f.py", PY, &more).is_empty());
}

#[test]
fn a_header_reads_as_text_and_integer_bounds() {
    use super::narrowed::*;
    assert!(cut("for i in range(1000):", "for i in range(10):"));
    assert!(cut("for i in 0..1_000 {", "for i in 0..100 {"));
    assert!(!cut("for i in range(x1000):", "for i in range(x10):"));
    assert!(!cut("for i in range(0x1000):", "for i in range(0x10):"));
    assert!(!cut(
        "for i in range(1000, 2000):",
        "for i in range(10, 2000):"
    ));
    assert!(!cut("for i in range(1000):", "for i in range(1000):"));
    assert!(!cut("for i in range(10, 1000):", "for i in range(5, 10):"));
}

/// Review 122's false alarms: a loop split in two walks the same range, and a
/// step halved walks more values.
#[test]
fn a_loop_split_or_its_step_halved_is_no_finding() {
    let split = PY.replace(
        "    for i in range(100_000):\n        assert f(i) >= 0\n",
        "    for i in range(50_000):\n        assert f(i) >= 0\n    for i in range(50_000, 100_000):\n        assert f(i) >= 0\n",
    );
    assert!(rules("tests/test_f.py", PY, &split).is_empty());
    let step = "from calc import f\n\n\ndef test_f():\n    for i in range(0, len(DATA), 64):\n        assert f(i) >= 0\n";
    assert!(rules("tests/test_f.py", step, &step.replace("64", "32")).is_empty());
}

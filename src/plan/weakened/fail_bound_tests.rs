//! Rule `assertion-rewritten`, failing-branch form: a test that fails itself in
//! a branch (`if (n > 10) t.fail()`, `if d > limit { t.Fatal() }`, `if n >= 5:
//! pytest.fail()`) whose bound, a number or a name bound once to one, moved the
//! way that lets more through. Honest twins beside each: the bound made
//! stricter, a branch that does not fail the test, a wait made longer, a
//! subject changed with its bound, a new test.

use super::rules::{RuleId, Severity};
use super::*;

fn all(path: &str, before: &str, after: &str) -> Vec<String> {
    found_in(path, before, after)
        .iter()
        .flat_map(|f| f.parts.clone())
        .map(|p| {
            format!(
                "{} [{}, {}]",
                p.text,
                p.rule.name(),
                p.rule.severity().name()
            )
        })
        .collect()
}

fn one_high(found: &[String], why: &str, case: &str) {
    assert!(
        found.len() == 1
            && found[0].contains(why)
            && found[0].ends_with("[assertion-rewritten, high]"),
        "{case}: {found:?}"
    );
    assert_eq!(RuleId::AssertionRewritten.severity(), Severity::High);
}

const JS: &str = "test/heap.test.js";
const PY: &str = "tests/test_retry.py";
const GO: &str = "pool_test.go";

/// A sampler that fails once the heap grew more than `n` times in a row; the
/// interval it samples at is `every` milliseconds.
fn js_sampler(branch: &str, every: u32) -> String {
    format!(
        "const {{ test }} = require('tap')\nconst {{ heapSize }} = require('../lib/heap')\n\ntest('the heap settles', (t) => {{\n  let grew = 0\n  let last = heapSize()\n  const timer = setInterval(() => {{\n    const now = heapSize()\n    if (now <= last) {{\n      clearInterval(timer)\n      t.pass()\n{branch}    }} else {{\n      last = now\n    }}\n  }}, {every})\n}})\n"
    )
}

fn js_fails_after(n: u32) -> String {
    js_sampler(
        &format!("    }} else if (grew++ > {n}) {{\n      clearInterval(timer)\n      t.fail()\n"),
        50,
    )
}

fn js(body: &str) -> String {
    format!(
        "const assert = require('node:assert')\nconst {{ test }} = require('node:test')\nconst {{ measure }} = require('../lib/measure')\n\ntest('measures', () => {{\n  const took = measure(3)\n{body}}})\n"
    )
}

fn py(body: &str) -> String {
    format!(
        "import unittest\n\nimport pytest\n\nfrom retry import attempts, timed\n\n\ndef test_retries():\n    n = attempts()\n{body}"
    )
}

fn go(consts: &str, body: &str) -> String {
    format!(
        "package pool\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n{consts}\nfunc TestAcquire(t *testing.T) {{\n\tstart := time.Now()\n\tn := Acquire(3)\n{body}}}\n"
    )
}

#[test]
fn a_failing_branch_s_bound_raised_in_js_is_found() {
    one_high(
        &all(JS, &js_fails_after(10), &js_fails_after(20)),
        "a bound raised",
        "tap t.fail()",
    );
    for (b, a, why) in [
        (
            "  if (took > 50) throw new Error('too slow')\n",
            "  if (took > 80) throw new Error('too slow')\n",
            "a bound raised",
        ),
        (
            "  if (took < 3) {\n    assert.fail('too few')\n  }\n",
            "  if (took < 1) {\n    assert.fail('too few')\n  }\n",
            "a bound lowered",
        ),
        (
            "  if (2 * 1000 <= took) {\n    assert.fail('slow')\n  }\n",
            "  if (5 * 1000 <= took) {\n    assert.fail('slow')\n  }\n",
            "a bound raised",
        ),
    ] {
        one_high(&all(JS, &js(b), &js(a)), why, a);
    }
}

#[test]
fn a_failing_branch_s_bound_raised_in_go_is_found() {
    for (b, a, why) in [
        (
            go(
                "",
                "\tif d := time.Since(start); d > 10*time.Millisecond {\n\t\tt.Fatalf(\"took %v\", d)\n\t}\n",
            ),
            go(
                "",
                "\tif d := time.Since(start); d > 20*time.Millisecond {\n\t\tt.Fatalf(\"took %v\", d)\n\t}\n",
            ),
            "a bound raised",
        ),
        (
            go(
                "\nconst most = 10\n",
                "\tif n > most {\n\t\tt.Errorf(\"%d held\", n)\n\t}\n",
            ),
            go(
                "\nconst most = 20\n",
                "\tif n > most {\n\t\tt.Errorf(\"%d held\", n)\n\t}\n",
            ),
            "a bound raised",
        ),
        (
            go("", "\tif n < 3 {\n\t\tt.FailNow()\n\t}\n"),
            go("", "\tif n < 2 {\n\t\tt.FailNow()\n\t}\n"),
            "a bound lowered",
        ),
    ] {
        one_high(&all(GO, &b, &a), why, &a);
    }
}

#[test]
fn a_failing_branch_s_bound_raised_in_python_is_found() {
    for (b, a, why) in [
        (
            "    if n >= 5:\n        pytest.fail(\"too many attempts\")\n",
            "    if n >= 8:\n        pytest.fail(\"too many attempts\")\n",
            "a bound raised",
        ),
        (
            "    if timed() > 0.5:\n        raise AssertionError(\"slow\")\n",
            "    if timed() > 2.5:\n        raise AssertionError(\"slow\")\n",
            "a bound raised",
        ),
        (
            "    if n < 2:\n        pass\n    elif n > 9:\n        pytest.fail(\"many\")\n",
            "    if n < 2:\n        pass\n    elif n > 12:\n        pytest.fail(\"many\")\n",
            "a bound raised",
        ),
    ] {
        one_high(&all(PY, &py(b), &py(a)), why, a);
    }
    let unit = |n: u32| {
        format!(
            "import unittest\n\nfrom retry import attempts\n\nLEAST = {n}\n\n\nclass TestRetry(unittest.TestCase):\n    def test_hits(self):\n        hits = attempts()\n        if hits < LEAST:\n            self.fail(\"too few\")\n"
        )
    };
    one_high(&all(PY, &unit(3), &unit(1)), "a bound lowered", "self.fail");
}

#[test]
fn a_failing_branch_s_bound_made_stricter_is_no_finding() {
    assert_eq!(
        all(JS, &js_fails_after(20), &js_fails_after(10)),
        Vec::<String>::new()
    );
    assert_eq!(
        all(
            JS,
            &js("  if (took < 1) throw new Error('few')\n"),
            &js("  if (took < 3) throw new Error('few')\n")
        ),
        Vec::<String>::new()
    );
    let guard = |consts: &str| go(consts, "\tif n > most {\n\t\tt.Fatal(n)\n\t}\n");
    assert_eq!(
        all(
            GO,
            &guard("\nconst most = 20\n"),
            &guard("\nconst most = 10\n")
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        all(
            PY,
            &py("    if n >= 8:\n        pytest.fail(\"many\")\n"),
            &py("    if n >= 5:\n        pytest.fail(\"many\")\n")
        ),
        Vec::<String>::new()
    );
}

#[test]
fn a_branch_that_does_not_fail_the_test_is_no_finding() {
    let stops = |n: u32| {
        js_sampler(
            &format!(
                "    }} else if (grew++ > {n}) {{\n      clearInterval(timer)\n      t.end()\n"
            ),
            50,
        )
    };
    assert_eq!(all(JS, &stops(10), &stops(20)), Vec::<String>::new());
    let breaks = |n: u32| {
        js(&format!(
            "  for (const step of [1, 2, 3]) {{\n    if (took * step > {n}) break\n  }}\n  assert.ok(took)\n"
        ))
    };
    assert_eq!(all(JS, &breaks(10), &breaks(20)), Vec::<String>::new());
    let logs = |n: u32| {
        go(
            "",
            &format!("\tif n > {n} {{\n\t\tt.Logf(\"%d held\", n)\n\t}}\n"),
        )
    };
    assert_eq!(all(GO, &logs(10), &logs(20)), Vec::<String>::new());
    let retries = |n: u32| {
        py(&format!(
            "    while True:\n        if n >= {n}:\n            break\n        n += 1\n    assert n\n"
        ))
    };
    assert_eq!(all(PY, &retries(5), &retries(8)), Vec::<String>::new());
}

/// A wait made longer fails nothing sooner or later by itself: the sampler's
/// interval and a sleep are no bound of a failing branch.
#[test]
fn a_timeout_raised_in_a_call_is_not_this_rule() {
    let every = |ms: u32| {
        js_sampler(
            "    } else if (grew++ > 10) {\n      clearInterval(timer)\n      t.fail()\n",
            ms,
        )
    };
    assert_eq!(all(JS, &every(100), &every(200)), Vec::<String>::new());
    let sleeps = |s: &str| {
        py(&format!(
            "    time.sleep({s})\n    if n >= 5:\n        pytest.fail(\"many\")\n"
        ))
    };
    assert_eq!(
        all(PY, &sleeps("0.1"), &sleeps("0.2")),
        Vec::<String>::new()
    );
}

#[test]
fn a_subject_changed_with_its_bound_or_a_new_test_is_no_finding() {
    assert_eq!(
        all(
            JS,
            &js("  if (took > 50) throw new Error('slow')\n"),
            &js("  if (took.total > 80) throw new Error('slow')\n")
        ),
        Vec::<String>::new()
    );
    let before = py("    if n >= 5:\n        pytest.fail(\"many\")\n");
    let after = format!(
        "{before}\n\ndef test_bursts():\n    n = attempts(burst=True)\n    if n >= 50:\n        pytest.fail(\"many\")\n"
    );
    assert_eq!(all(PY, &before, &after), Vec::<String>::new());
}

/// Go's `if` whose block fails the test is a statement the loosening reader
/// reads as well, and it read the bound as an assertion's: the test passes
/// where the condition does not hold, so `if n > 10` made `> 20` drew nothing
/// and `> 20` made `> 10`, stricter, drew `a bound lowered`.
#[test]
fn a_go_failing_branch_s_literal_bound_reads_the_right_way_round() {
    let fails = |condition: &str| go("", &format!("\tif {condition} {{\n\t\tt.Fatal(n)\n\t}}\n"));
    for (b, a, why) in [
        ("n > 10", "n > 20", "a bound raised"),
        ("n < 5", "n < 0.5", "a bound lowered"),
        (
            "math.Abs(float64(n)-3) > 1e-9",
            "math.Abs(float64(n)-3) > 1e-3",
            "a tolerance widened",
        ),
    ] {
        one_high(&all(GO, &fails(b), &fails(a)), why, a);
    }
    for (b, a) in [
        ("n > 20", "n > 10"),
        ("n < 0.5", "n < 5"),
        ("n > 5", "n > 0.5"),
        (
            "math.Abs(float64(n)-3) > 1e-3",
            "math.Abs(float64(n)-3) > 1e-9",
        ),
    ] {
        assert_eq!(all(GO, &fails(b), &fails(a)), Vec::<String>::new(), "{a}");
    }
}

/// The part names the line of the new file its `if` is on.
#[test]
fn a_failing_branch_s_bound_raised_names_its_line() {
    let found = found_in(JS, &js_fails_after(10), &js_fails_after(20));
    let lines: Vec<Option<usize>> = found
        .iter()
        .flat_map(|f| f.parts.iter().map(|p| p.line))
        .collect();
    let want = js_fails_after(20)
        .lines()
        .position(|l| l.contains("grew++ > 20"))
        .map(|k| k + 1);
    assert_eq!(lines, vec![want]);
}

/// Attack (hostile review): a bound made infinite, or spelled so the old
/// reading took no number from it, let everything through: `Infinity`,
/// `Number.MAX_VALUE`, `1e400`, `math.inf`, `float("inf")`, Go's `math.Inf(1)`.
#[test]
fn attack_a_failing_branch_s_bound_made_infinite_is_found() {
    for a in [
        "Infinity",
        "Number.MAX_VALUE",
        "Number.POSITIVE_INFINITY",
        "1e400",
    ] {
        let after = js(&format!("  if (took > {a}) throw new Error('slow')\n"));
        let before = js("  if (took > 50) throw new Error('slow')\n");
        one_high(&all(JS, &before, &after), "a bound raised", a);
    }
    for a in ["math.inf", "float(\"inf\")", "float('inf')"] {
        let after = py(&format!(
            "    if timed() > {a}:\n        raise AssertionError(\"slow\")\n"
        ));
        let before = py("    if timed() > 0.5:\n        raise AssertionError(\"slow\")\n");
        one_high(&all(PY, &before, &after), "a bound raised", a);
    }
    let fails = |condition: &str| go("", &format!("\tif {condition} {{\n\t\tt.Fatal(n)\n\t}}\n"));
    one_high(
        &all(
            GO,
            &fails("float64(n) > 10"),
            &fails("float64(n) > math.Inf(1)"),
        ),
        "a bound raised",
        "math.Inf(1)",
    );
    let lower = js("  if (took < -Infinity) throw new Error('few')\n");
    one_high(
        &all(JS, &js("  if (took < 3) throw new Error('few')\n"), &lower),
        "a bound lowered",
        "-Infinity",
    );
}

/// Attack: the bound folded from literals (`10 * 1000`, `100 - 1`), in another
/// Go time unit, `>` made `>=` at a larger bound, or the comparison turned
/// round with its operands.
#[test]
fn attack_a_failing_branch_s_bound_respelled_and_raised_is_found() {
    let js_fails = |c: &str| js(&format!("  if ({c}) throw new Error('slow')\n"));
    for (b, a) in [
        ("took > 5000", "took > 10 * 1000"),
        ("took > 50", "took > 100 - 1"),
        ("took > 50", "took >= 500"),
        ("took > 50", "500 < took"),
        ("50 < took", "took >= 500"),
    ] {
        one_high(&all(JS, &js_fails(b), &js_fails(a)), "a bound raised", a);
    }
    let fails = |condition: &str| go("", &format!("\tif {condition} {{\n\t\tt.Fatal(n)\n\t}}\n"));
    for (b, a) in [
        (
            "time.Since(start) > 500*time.Millisecond",
            "time.Since(start) > time.Second",
        ),
        (
            "time.Since(start) > 1000*time.Millisecond",
            "time.Since(start) > 2*time.Second",
        ),
        ("n > 10", "100 < n"),
    ] {
        one_high(&all(GO, &fails(b), &fails(a)), "a bound raised", a);
    }
}

/// Attack: a second bar of the same shape in the same test, so the count of
/// bars of that shape differs and no old bar paired a new one; and the tight
/// bar loosened with a looser one left beside it.
#[test]
fn attack_a_failing_branch_s_bound_raised_beside_a_second_bar_is_found() {
    let one = "  if (took > 50) throw new Error('slow')\n";
    let two =
        "  if (took > 500) throw new Error('slow')\n  if (took > 900) throw new Error('slower')\n";
    one_high(&all(JS, &js(one), &js(two)), "a bound raised", "two bars");
    let pair =
        "  if (took > 50) throw new Error('slow')\n  if (took > 900) throw new Error('slower')\n";
    one_high(
        &all(JS, &js(pair), &js(two)),
        "a bound raised",
        "the tight one",
    );
}

/// Honest twins: the same value spelled another way, a bar moved to another
/// test as it was, a second stricter bar added, `>` made `>=` at one value.
#[test]
fn a_failing_branch_s_bound_respelled_to_the_same_value_is_no_finding() {
    let js_fails = |c: &str| js(&format!("  if ({c}) throw new Error('slow')\n"));
    for (b, a) in [
        ("took > 10_000", "took > 1e4"),
        ("took > 10000", "took > 10 * 1000"),
        ("took > 50", "50 < took"),
        ("took > 50", "took >= 50"),
        ("took > 50", "took > 40"),
    ] {
        assert_eq!(
            all(JS, &js_fails(b), &js_fails(a)),
            Vec::<String>::new(),
            "{a}"
        );
    }
    let added = js(
        "  if (took > 50) throw new Error('slow')\n  if (took > 20) throw new Error('slower')\n",
    );
    assert_eq!(
        all(
            JS,
            &js("  if (took > 50) throw new Error('slow')\n"),
            &added
        ),
        Vec::<String>::new()
    );
    let fails = |condition: &str| go("", &format!("\tif {condition} {{\n\t\tt.Fatal(n)\n\t}}\n"));
    for (b, a) in [
        (
            "time.Since(start) > 1000*time.Millisecond",
            "time.Since(start) > time.Second",
        ),
        (
            "time.Since(start) > time.Second",
            "time.Since(start) > 500*time.Millisecond",
        ),
    ] {
        assert_eq!(all(GO, &fails(b), &fails(a)), Vec::<String>::new(), "{a}");
    }
    let before = py("    if n >= 5:\n        pytest.fail(\"many\")\n    assert n\n");
    let after = format!(
        "{}\n\ndef test_bursts():\n    n = attempts(burst=True)\n    if n >= 5:\n        pytest.fail(\"many\")\n",
        py("    assert n\n")
    );
    assert_eq!(all(PY, &before, &after), Vec::<String>::new());
}

/// Attack: the failing branch taken out while its subject is still computed
/// and checked by nothing else.
#[test]
fn attack_a_failing_branch_removed_while_its_subject_is_kept_is_found() {
    let before = js("  if (took > 50) throw new Error('slow')\n  console.log(took)\n");
    let after = js("  console.log(took)\n");
    let found = all(JS, &before, &after);
    assert!(found.iter().any(|f| f.ends_with(", high]")), "{found:?}");
    let before = go("", "\tif n > 10 {\n\t\tt.Fatal(n)\n\t}\n\tt.Log(n)\n");
    let after = go("", "\tt.Log(n)\n");
    let found = all(GO, &before, &after);
    assert!(found.iter().any(|f| f.ends_with(", high]")), "{found:?}");
}

/// Honest twin: the failing branch rewritten as an assertion on its subject,
/// or taken out with every use of its subject.
#[test]
fn a_failing_branch_rewritten_as_an_assertion_is_no_finding() {
    let before = js("  if (took > 50) throw new Error('slow')\n  console.log(took)\n");
    for after in [
        js("  assert.ok(took <= 50)\n  console.log(took)\n"),
        js("  assert.ok(measure(2))\n").replace("  const took = measure(3)\n", ""),
    ] {
        assert_eq!(all(JS, &before, &after), Vec::<String>::new(), "{after}");
    }
    let before = go("", "\tif n > 10 {\n\t\tt.Fatal(n)\n\t}\n\tt.Log(n)\n");
    let after = go(
        "",
        "\tif !(n <= 10) {\n\t\tt.Fatalf(\"%d over\", n)\n\t}\n\tt.Log(n)\n",
    );
    let found = all(GO, &before, &after);
    assert!(
        found.iter().all(|f| !f.contains("became no bar")),
        "{found:?}"
    );
}

/// Helper 95's review: a bar another test already had is no bar moved there; it
/// made up for one taken out of this test.
#[test]
fn attack_a_bar_removed_beside_the_same_bar_in_another_test_is_found() {
    let two = |first: &str| {
        format!(
            "const {{ test }} = require('node:test')\nconst {{ measure }} = require('../lib/measure')\n\ntest('measures', () => {{\n  const took = measure(3)\n{first}  console.log(took)\n}})\n\ntest('measures twice', () => {{\n  const took = measure(6)\n  if (took > 50) throw new Error('slow')\n}})\n"
        )
    };
    let before = two("  if (took > 50) throw new Error('slow')\n");
    let found = all(JS, &before, &two(""));
    assert!(found.iter().any(|f| f.ends_with(", high]")), "{found:?}");
}

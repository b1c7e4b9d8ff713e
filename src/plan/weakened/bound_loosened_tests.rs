//! Rule `assertion-rewritten`, bound form: a check kept the same kind while the
//! bound it compares against was loosened (an upper bound raised, a lower bound
//! lowered, a tolerance widened, fewer places), whether the number is in the check
//! or in a name the file binds once (a conditional of literals, a table a loop
//! reads). Honest twins beside each: a bound tightened, a bound changed with its
//! subject, a timeout no check compares, an exact value changed, input data
//! changed, a new test, a reformat.

use super::rules::{RuleId, Severity};
use super::*;

/// The parts found in `path` going from `before` to `after` whose words say a
/// bound or tolerance was loosened, each as `text [rule, severity]`.
fn bounds(path: &str, before: &str, after: &str) -> Vec<String> {
    found_in(path, before, after)
        .iter()
        .flat_map(|f| f.parts.clone())
        .filter(|p| {
            [
                "a bound raised",
                "a bound lowered",
                "a tolerance widened",
                "fewer decimal places",
            ]
            .iter()
            .any(|w| p.text.contains(w))
        })
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

/// Every part found, in words: for twins that must stay silent.
fn all(path: &str, before: &str, after: &str) -> Vec<String> {
    found_in(path, before, after)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn one_high(found: &[String], why: &str, case: &str) {
    assert!(
        found.len() == 1
            && found[0].contains(why)
            && found[0].ends_with("[assertion-rewritten, high]"),
        "{case}: {found:?}"
    );
    assert_eq!(
        RuleId::AssertionRewritten.severity(),
        Severity::High,
        "the rule, not the words, makes it high"
    );
}

fn py(body: &str) -> String {
    format!(
        "import math\nimport time\n\nimport pytest\n\nfrom calc import run, size\n\n\ndef test_run():\n    took = run(3)\n{body}"
    )
}

fn ts(body: &str) -> String {
    format!(
        "import {{ expect, test }} from 'vitest'\nimport {{ run }} from '../src/run'\n\ntest('runs fast', async () => {{\n  const took = await run(3)\n{body}}})\n"
    )
}

fn rs(body: &str) -> String {
    format!("use calc::run;\n\n#[test]\nfn runs_fast() {{\n    let took = run(3);\n{body}}}\n")
}

fn go(body: &str) -> String {
    format!(
        "package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestRun(t *testing.T) {{\n\ttook := Run(3)\n{body}}}\n"
    )
}

const PY: &str = "tests/test_calc.py";
const TS: &str = "test/run.test.ts";
const RS: &str = "tests/run.rs";
const GO: &str = "calc_test.go";

#[test]
fn python_bound_raised_or_lowered_or_tolerance_widened_is_found() {
    for (b, a, why) in [
        (
            "    assert took < 0.5\n",
            "    assert took < 2.0\n",
            "a bound raised",
        ),
        (
            "    assert took <= 3\n",
            "    assert took <= 10\n",
            "a bound raised",
        ),
        (
            "    assert took > 10\n",
            "    assert took > 5\n",
            "a bound lowered",
        ),
        (
            "    assert 10 < took\n",
            "    assert 5 < took\n",
            "a bound lowered",
        ),
        (
            "    assert abs(took - 3) < 0.2\n",
            "    assert abs(took - 3) < 0.5\n",
            "a tolerance widened",
        ),
        (
            "    assert took == pytest.approx(3, rel=1e-6)\n",
            "    assert took == pytest.approx(3, rel=1e-3)\n",
            "a tolerance widened",
        ),
        (
            "    assert math.isclose(took, 3, abs_tol=0.01)\n",
            "    assert math.isclose(took, 3, abs_tol=0.05)\n",
            "a tolerance widened",
        ),
    ] {
        one_high(&bounds(PY, &py(b), &py(a)), why, a);
    }
}

#[test]
fn js_bound_raised_or_lowered_is_found() {
    for (b, a, why) in [
        (
            "  expect(took).toBeLessThanOrEqual(2830)\n",
            "  expect(took).toBeLessThanOrEqual(2858)\n",
            "a bound raised",
        ),
        (
            "  expect(took).toBeLessThan(100)\n",
            "  expect(took).toBeLessThan(150)\n",
            "a bound raised",
        ),
        (
            "  expect(took).toBeGreaterThan(100)\n",
            "  expect(took).toBeGreaterThan(50)\n",
            "a bound lowered",
        ),
        (
            "  expect(took).toBeCloseTo(1.5, 5)\n",
            "  expect(took).toBeCloseTo(1.5, 2)\n",
            "fewer decimal places",
        ),
    ] {
        one_high(&bounds(TS, &ts(b), &ts(a)), why, a);
    }
}

#[test]
fn rust_bound_raised_or_tolerance_widened_is_found() {
    for (b, a, why) in [
        (
            "    assert!(took < 100);\n",
            "    assert!(took < 500);\n",
            "a bound raised",
        ),
        (
            "    assert_abs_diff_eq!(took, 3.0, epsilon = 1e-9);\n",
            "    assert_abs_diff_eq!(took, 3.0, epsilon = 1e-3);\n",
            "a tolerance widened",
        ),
    ] {
        one_high(&bounds(RS, &rs(b), &rs(a)), why, a);
    }
}

#[test]
fn go_bound_raised_or_tolerance_widened_is_found() {
    for (b, a, why) in [
        (
            "\tassert.Less(t, took, 100)\n",
            "\tassert.Less(t, took, 500)\n",
            "a bound raised",
        ),
        (
            "\tassert.LessOrEqual(t, took, 100)\n",
            "\tassert.LessOrEqual(t, took, 101)\n",
            "a bound raised",
        ),
        (
            "\tassert.Greater(t, took, 10)\n",
            "\tassert.Greater(t, took, 5)\n",
            "a bound lowered",
        ),
        (
            "\tassert.InDelta(t, 1.5, took, 0.01)\n",
            "\tassert.InDelta(t, 1.5, took, 0.02)\n",
            "a tolerance widened",
        ),
        (
            "\tassert.InEpsilon(t, 1.5, took, 0.01)\n",
            "\tassert.InEpsilon(t, 1.5, took, 0.5)\n",
            "a tolerance widened",
        ),
    ] {
        one_high(&bounds(GO, &go(b), &go(a)), why, a);
    }
}

/// The ky shape: a helper's check compares a name bound once to a conditional
/// of literals, and the literals were raised.
fn ky(ci: &str, local: &str) -> String {
    format!(
        "import process from 'node:process';\nimport type {{ExecutionContext}} from 'ava';\n\nconst nodeVersion = Number(process.versions.node.split('.')[0]);\nconst allowedOffset = process.env.CI ? (nodeVersion >= 22 ? 700 : {ci}) : {local};\n\nexport async function withPerformance({{expectedDuration, t, test}}: {{expectedDuration: number; t: ExecutionContext; test: () => Promise<void>}}) {{\n\tconst startTime = performance.now();\n\tawait test();\n\tconst duration = performance.now() - startTime;\n\tt.true(\n\t\tMath.abs(duration - expectedDuration) < allowedOffset,\n\t\t`Duration of ${{duration}}ms is not close`,\n\t);\n}}\n"
    )
}

const KY: &str = "test/helpers/with-performance.ts";

#[test]
fn a_named_bound_raised_in_a_helper_is_found() {
    one_high(
        &bounds(KY, &ky("300", "200"), &ky("500", "400")),
        "a tolerance widened",
        "ky",
    );
}

#[test]
fn a_named_bound_tightened_or_its_condition_changed_is_no_finding() {
    assert_eq!(
        all(KY, &ky("500", "400"), &ky("300", "200")),
        Vec::<String>::new()
    );
    // One raised and one lowered: not one direction.
    assert_eq!(
        bounds(KY, &ky("300", "200"), &ky("500", "100")),
        Vec::<String>::new()
    );
}

/// The zod shape: a table of ceilings a loop over its entries compares with.
fn zod(a: u32, b: u32) -> String {
    format!(
        "import {{ expect, test }} from 'vitest';\n\nconst CEILINGS: Record<string, number> = {{\n  \"zod-mini-boolean\": {a},\n  \"zod-mini-string\": {b},\n}};\n\nfor (const [fixture, ceiling] of Object.entries(CEILINGS)) {{\n  test(`${{fixture}} stays under ${{ceiling}}`, async () => {{\n    const size = await measure(fixture);\n    expect(\n      size,\n      `${{fixture}} is ${{size}} bytes`\n    ).toBeLessThanOrEqual(ceiling);\n  }});\n}}\n"
    )
}

const ZOD: &str = "packages/treeshake/bundle-size.test.ts";

#[test]
fn a_table_of_bounds_a_loop_compares_raised_is_found() {
    one_high(
        &bounds(ZOD, &zod(2830, 3155), &zod(2858, 3186)),
        "a bound raised",
        "zod",
    );
    assert_eq!(
        all(ZOD, &zod(2858, 3186), &zod(2830, 3155)),
        Vec::<String>::new()
    );
}

/// Python's table shape and a named constant in Rust and Go.
#[test]
fn named_bounds_in_python_rust_and_go_are_found() {
    let py_table = |n: u32| {
        format!(
            "from calc import size\n\nLIMITS = {{\"small\": {n}, \"large\": 900}}\n\n\ndef test_sizes():\n    for name, limit in LIMITS.items():\n        assert size(name) <= limit\n"
        )
    };
    one_high(
        &bounds(PY, &py_table(100), &py_table(150)),
        "a bound raised",
        "py table",
    );
    let rs_const = |n: u32| {
        format!(
            "use calc::run;\n\nconst MAX_MS: u64 = {n};\n\n#[test]\nfn runs_fast() {{\n    let took = run(3);\n    assert!(took < MAX_MS);\n}}\n"
        )
    };
    one_high(
        &bounds(RS, &rs_const(100), &rs_const(400)),
        "a bound raised",
        "rust const",
    );
    let go_const = |n: u32| {
        format!(
            "package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nconst maxMs = {n}\n\nfunc TestRun(t *testing.T) {{\n\ttook := Run(3)\n\tassert.Less(t, took, maxMs)\n}}\n"
        )
    };
    one_high(
        &bounds(GO, &go_const(100), &go_const(400)),
        "a bound raised",
        "go const",
    );
    // Tightened: silent.
    assert_eq!(
        all(GO, &go_const(400), &go_const(100)),
        Vec::<String>::new()
    );
}

#[test]
fn a_bound_tightened_is_no_finding() {
    assert_eq!(
        all(
            PY,
            &py("    assert took < 2.0\n"),
            &py("    assert took < 0.5\n")
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        all(
            PY,
            &py("    assert took > 5\n"),
            &py("    assert took > 10\n")
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        all(
            TS,
            &ts("  expect(took).toBeLessThan(150)\n"),
            &ts("  expect(took).toBeLessThan(100)\n")
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        all(
            RS,
            &rs("    assert!(took < 500);\n"),
            &rs("    assert!(took < 100);\n")
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        all(
            GO,
            &go("\tassert.InDelta(t, 1.5, took, 0.5)\n"),
            &go("\tassert.InDelta(t, 1.5, took, 0.01)\n")
        ),
        Vec::<String>::new()
    );
}

/// A different expression compared: the subject changed with its bound.
#[test]
fn a_bound_changed_with_its_subject_is_no_finding() {
    for (b, a) in [
        ("    assert size(1) < 3\n", "    assert size(2) < 10\n"),
        (
            "    assert len(took.parts[0]) <= 3\n",
            "    assert len(took.parts[1]) <= 9\n",
        ),
    ] {
        assert_eq!(bounds(PY, &py(b), &py(a)), Vec::<String>::new(), "{a}");
    }
    assert_eq!(
        bounds(
            TS,
            &ts("  expect(took[0]).toBeLessThan(5)\n"),
            &ts("  expect(took[1]).toBeLessThan(9)\n")
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        bounds(
            GO,
            &go("\tassert.Less(t, took[0], 5)\n"),
            &go("\tassert.Less(t, took[1], 9)\n")
        ),
        Vec::<String>::new()
    );
}

/// A wait made longer is no check made looser: no check compares it.
#[test]
fn a_timeout_no_check_compares_is_no_finding() {
    let body = |n: u32| {
        format!(
            "  jest.setTimeout({n})\n  await wait({{ timeout: {n} }})\n  expect(took).toBeLessThan(100)\n"
        )
    };
    assert_eq!(
        all(TS, &ts(&body(5000)), &ts(&body(10000))),
        Vec::<String>::new()
    );
    let body = |n: &str| format!("    time.sleep({n})\n    assert took < 5\n");
    assert_eq!(
        all(PY, &py(&body("0.1")), &py(&body("1.0"))),
        Vec::<String>::new()
    );
}

/// An exact expected value changed is `its expected value changed`, once.
#[test]
fn an_exact_value_changed_is_not_a_bound() {
    assert_eq!(
        bounds(
            PY,
            &py("    assert took == 5\n"),
            &py("    assert took == 6\n")
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        bounds(
            GO,
            &go("\tassert.Equal(t, 5, took)\n"),
            &go("\tassert.Equal(t, 6, took)\n")
        ),
        Vec::<String>::new()
    );
}

/// A literal in the test's input data, and a name the check reads as its subject.
#[test]
fn input_data_changed_is_no_finding() {
    let table = |n: u32| {
        format!(
            "from calc import size\n\nDATA = [1, 2, {n}]\n\n\ndef test_sizes():\n    assert max(DATA) < 100\n"
        )
    };
    assert_eq!(all(PY, &table(3), &table(30)), Vec::<String>::new());
    let body =
        |n: u32| format!("  const took2 = await run({n})\n  expect(took2).toBeLessThan(100)\n");
    assert_eq!(all(TS, &ts(&body(3)), &ts(&body(30))), Vec::<String>::new());
}

#[test]
fn a_new_test_with_a_loose_bound_is_no_finding() {
    let before = py("    assert took < 0.5\n");
    let after =
        format!("{before}\n\ndef test_slow():\n    took = run(9)\n    assert took < 1000\n");
    assert_eq!(all(PY, &before, &after), Vec::<String>::new());
}

#[test]
fn a_reformatted_file_is_no_finding() {
    let b = ts("  expect(took).toBeLessThanOrEqual(2830)\n");
    let a = ts("  expect(took)\n    .toBeLessThanOrEqual(2830)\n");
    assert_eq!(all(TS, &b, &a), Vec::<String>::new());
    assert_eq!(
        all(
            KY,
            &ky("300", "200"),
            &ky("300", "200").replace(" ? 700 : 300)", " ?\n\t700 : 300)")
        ),
        Vec::<String>::new()
    );
}

/// One attack per language, as the transcript records it.
#[test]
fn each_language_s_bound_raised_reads_as_recorded() {
    let cases = [
        (
            PY,
            py("    assert took < 0.5\n"),
            py("    assert took < 2.0\n"),
        ),
        (
            TS,
            ts("  expect(took).toBeLessThanOrEqual(2830)\n"),
            ts("  expect(took).toBeLessThanOrEqual(2858)\n"),
        ),
        (
            RS,
            rs("    assert!(took < 100);\n"),
            rs("    assert!(took < 500);\n"),
        ),
        (
            GO,
            go("\tassert.Less(t, took, 100)\n"),
            go("\tassert.Less(t, took, 500)\n"),
        ),
        (KY, ky("300", "200"), ky("500", "400")),
        (ZOD, zod(2830, 3155), zod(2858, 3186)),
    ];
    let mut out = String::new();
    for (path, b, a) in &cases {
        for f in found_in(path, b, a) {
            let tags: Vec<String> = f
                .parts
                .iter()
                .map(|p| format!("{}, {}", p.rule.name(), p.rule.severity().name()))
                .collect();
            out.push_str(&format!("{f} [{}]\n", tags.join("; ")));
        }
    }
    insta::assert_snapshot!(out);
}

/// Helper 78's review: each number of a statement walked back to the start of
/// its list to find its call, quadratic in a golden list (100,000 numbers ran
/// past 60 s on a debug build). The walk is bounded now; such a list is read
/// in linear time and is no bound.
#[test]
fn a_long_list_of_numbers_in_a_check_is_read_in_linear_time() {
    let list = |first: usize| {
        (first..first + 30_000)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let before = rs(&format!("    assert_eq!(buf, [{}]);\n", list(0)));
    let after = rs(&format!("    assert_eq!(buf, [{}]);\n", list(1)));
    assert!(bounds("tests/golden.rs", &before, &after).is_empty());
}

/// Fresh JS/TS set (msw c9cfd58): a repository's own matcher named for a
/// tolerance (`toRoughlyEqual(250, 150)` become `(250, 200)`) took a wider
/// margin and drew nothing: its name is no library's. A matcher named roughly,
/// close, approx, near or within reads its last argument as the tolerance when
/// it is not the expected value; `toBeCloseTo`'s is places. Twins: the margin
/// narrowed, the expected value moved, a matcher of another name.
#[test]
fn a_tolerance_matcher_of_the_repository_s_own_widened_is_found() {
    for (b, a) in [
        (
            "  expect(took).toRoughlyEqual(250, 150)\n",
            "  expect(took).toRoughlyEqual(250, 200)\n",
        ),
        (
            "  expect(took).toBeApproximately(250, 5)\n",
            "  expect(took).toBeApproximately(250, 50)\n",
        ),
        (
            "  expect(took).toBeNear(250, 10)\n",
            "  expect(took).toBeNear(250, 30)\n",
        ),
    ] {
        one_high(&bounds(TS, &ts(b), &ts(a)), "a tolerance widened", a);
    }
    for (b, a) in [
        (
            "  expect(took).toRoughlyEqual(250, 200)\n",
            "  expect(took).toRoughlyEqual(250, 150)\n",
        ),
        (
            "  expect(took).toRoughlyEqual(250, 150)\n",
            "  expect(took).toRoughlyEqual(300, 150)\n",
        ),
        (
            "  expect(took).toHaveBeenNthCalledWith(2, 150)\n",
            "  expect(took).toHaveBeenNthCalledWith(2, 200)\n",
        ),
        (
            "  expect(took).toBeCloseTo(0.3, 2)\n",
            "  expect(took).toBeCloseTo(0.3, 5)\n",
        ),
        // Helper 84: a `…CloseTo` matcher's number is decimal places (more is
        // stricter), and a name holding `near` or `close` inside a word says
        // no margin.
        (
            "  expect(took).toBeDeepCloseTo(v, 3)\n",
            "  expect(took).toBeDeepCloseTo(v, 5)\n",
        ),
        (
            "  expect(took).toMatchCloseTo(v, 3)\n",
            "  expect(took).toMatchCloseTo(v, 5)\n",
        ),
        (
            "  expect(took).toBeLinear(250, 150)\n",
            "  expect(took).toBeLinear(250, 200)\n",
        ),
        (
            "  expect(took).toBeClosed(250, 150)\n",
            "  expect(took).toBeClosed(250, 200)\n",
        ),
    ] {
        assert_eq!(bounds(TS, &ts(b), &ts(a)), Vec::<String>::new(), "{a}");
    }
}

/// Helper 88 (red team, issue 68): a `…CloseTo` matcher's number is decimal
/// places, so fewer of them is a tolerance widened: `toBeDeepCloseTo(v, 5)`
/// made `(v, 1)` passed in silence, and so did `toMatchCloseTo`. Twins: places
/// raised (stricter) and the expected value changed stay silent.
#[test]
fn fewer_places_in_a_close_to_matcher_is_found() {
    for (b, a) in [
        (
            "  expect(took).toBeDeepCloseTo(v, 5)\n",
            "  expect(took).toBeDeepCloseTo(v, 1)\n",
        ),
        (
            "  expect(took).toMatchCloseTo(v, 5)\n",
            "  expect(took).toMatchCloseTo(v, 2)\n",
        ),
        (
            "  expect(took).toBeCloseTo(v, 5)\n",
            "  expect(took).toBeCloseTo(v, 2)\n",
        ),
        (
            "  expect(took).toBeDeepCloseTo([1.5, 2.5], 5)\n",
            "  expect(took).toBeDeepCloseTo([1.5, 2.5], 1)\n",
        ),
    ] {
        one_high(&bounds(TS, &ts(b), &ts(a)), "fewer decimal places", a);
    }
    for (b, a) in [
        (
            "  expect(took).toBeDeepCloseTo(v, 1)\n",
            "  expect(took).toBeDeepCloseTo(v, 5)\n",
        ),
        (
            "  expect(took).toBeCloseTo(v, 2)\n",
            "  expect(took).toBeCloseTo(v, 5)\n",
        ),
        (
            "  expect(took).toBeDeepCloseTo([1.5, 2.5], 5)\n",
            "  expect(took).toBeDeepCloseTo([1.5, 3.5], 5)\n",
        ),
    ] {
        assert_eq!(all(TS, &ts(b), &ts(a)), Vec::<String>::new(), "{a}");
    }
}

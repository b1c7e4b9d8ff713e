//! Review 111: today's detector changes (Rust's let-else and `match r.ok()`,
//! patch releases on the Python grid, renamed-and-touched tests, tables kept
//! in a name, literals spelled inside a removed test's) read by a hostile eye.
//! Each test is a weakening the detector should find or an honest change it
//! should leave alone; those that fail are ignored with why. The six
//! regressions it found against 01ee289a in the let-else guard, the tables
//! kept in a name and the literals spelled inside were mended by taking those
//! three readings out again (stop 95): their tests pass and are not ignored;
//! the holes those readings closed are open again (review 106's tests).

use super::*;

fn high(changes: &[Change]) -> bool {
    find(changes, &[]).iter().any(kinds::high)
}

fn said(changes: &[Change]) -> Vec<String> {
    find(changes, &[]).iter().map(ToString::to_string).collect()
}

fn edit(path: &str, before: &str, after: &str) -> Change {
    change(path, Some(before), Some(after))
}

fn rust_test(body: &str) -> String {
    format!("#[test]\nfn pipeline() {{\n    let mut buf = [0; 64];\n{body}}}\n")
}

const READ: &str = "    let n = req.read(&mut buf).expect(\"read\");\n    assert_ne!(n, 0);\n";

/// A test that ran made to leave quietly when its call fails, in spellings
/// of the let-else guard the reading does not take: the `match` that
/// `let … else` shortens, and a `?` made `else { return Ok(()) }`.
#[test]
#[ignore = "review 111: hole (01ee289a too), let n = match r { Ok(n) => n, Err(_) => return } is silent where let-else is found"]
fn a_quiet_exit_on_error_in_other_spellings_is_found() {
    let matched = "    let n = match req.read(&mut buf) {\n        Ok(n) => n,\n        Err(_) => return,\n    };\n    assert_ne!(n, 0);\n";
    let tried = "#[test]\nfn pipeline() -> std::io::Result<()> {\n    let mut buf = [0; 64];\n    let n = req.read(&mut buf)?;\n    assert_ne!(n, 0);\n    Ok(())\n}\n";
    let quiet = tried.replace(
        "    let n = req.read(&mut buf)?;\n",
        "    let Ok(n) = req.read(&mut buf) else { return Ok(()) };\n",
    );
    let missed: Vec<&str> = [
        (
            rust_test(READ),
            rust_test(matched),
            "match … Err(_) => return",
        ),
        (tried.to_string(), quiet, "? made else { return Ok(()) }"),
    ]
    .iter()
    .filter(|(was, now, _)| !high(&[edit("tests/server.rs", was, now)]))
    .map(|(_, _, what)| *what)
    .collect();
    assert!(missed.is_empty(), "{missed:?}");
}

/// The error's arm of a match only prints or leaves: it does nothing a test
/// fails on, as `None => ()` does not.
#[test]
#[ignore = "review 111: hole (01ee289a too), match r.ok() / match r with an error arm that only prints or returns swallows the error silently"]
fn a_result_matched_with_an_error_arm_that_prints_or_leaves_is_found() {
    let missed: Vec<&str> = [
        "    match req.read(&mut buf).ok() {\n        Some(n) => assert_ne!(n, 0),\n        None => eprintln!(\"no read\"),\n    }\n",
        "    match req.read(&mut buf).ok() {\n        Some(n) => assert_ne!(n, 0),\n        None => return,\n    }\n",
        "    match req.read(&mut buf) {\n        Ok(n) => assert_ne!(n, 0),\n        Err(e) => eprintln!(\"{e}\"),\n    }\n",
    ]
    .into_iter()
    .filter(|after| !high(&[edit("tests/server.rs", &rust_test(READ), &rust_test(after))]))
    .collect();
    assert!(missed.is_empty(), "{missed:?}");
}

/// A let-else whose `else` leaves passing in ways the reading does not
/// count as quiet: a log line before the `return`, a `return` of a default
/// (missed), the process ended with success (found by the rule on exits).
#[test]
#[ignore = "review 111: hole (01ee289a too), let-else whose else logs (log::warn!) before return, or returns Default::default(), is not read as quiet: silent"]
fn a_let_else_that_leaves_after_a_log_line_or_with_a_default_is_found() {
    let missed: Vec<&str> = [
        "    let Ok(n) = req.read(&mut buf) else {\n        log::warn!(\"no read\");\n        return;\n    };\n    assert_ne!(n, 0);\n",
        "    let Ok(n) = req.read(&mut buf) else { return Default::default() };\n    assert_ne!(n, 0);\n",
        "    let Ok(n) = req.read(&mut buf) else { std::process::exit(0) };\n    assert_ne!(n, 0);\n",
    ]
    .into_iter()
    .filter(|after| !high(&[edit("tests/server.rs", &rust_test(READ), &rust_test(after))]))
    .collect();
    assert!(missed.is_empty(), "{missed:?}");
}

/// A let-else that returns, one block down: in a bare block `return` still
/// leaves the whole test, and a loop run once or a closure called at once
/// are the test's body too; read as nested, each is a part of the test
/// stopping, not the test.
#[test]
#[ignore = "review 111: hole (01ee289a too; bypasses today's let-else reading), let-else returning inside a bare block, a loop run once or a closure called at once is read as nested: silent"]
fn a_let_else_one_block_down_is_found() {
    let missed: Vec<&str> = [
        "    {\n        let Ok(n) = req.read(&mut buf) else { return };\n        assert_ne!(n, 0);\n    }\n",
        "    loop {\n        let Ok(n) = req.read(&mut buf) else { break };\n        assert_ne!(n, 0);\n        break;\n    }\n",
        "    (|| {\n        let Ok(n) = req.read(&mut buf) else { return };\n        assert_ne!(n, 0);\n    })();\n",
    ]
    .into_iter()
    .filter(|after| !high(&[edit("tests/server.rs", &rust_test(READ), &rust_test(after))]))
    .collect();
    assert!(missed.is_empty(), "{missed:?}");
}

/// Honest: a test that ran gains, after its assertions (all still run), a
/// check of an optional fixture folder behind let-else.
#[test]
fn a_test_gaining_an_optional_check_after_its_assertions_is_no_high() {
    let after = format!(
        "{READ}    let Ok(dir) = std::env::var(\"FIXTURES\") else {{ return }};\n    assert!(std::path::Path::new(&dir).is_dir());\n"
    );
    let found = said(&[edit(
        "tests/server.rs",
        &rust_test(READ),
        &rust_test(&after),
    )]);
    assert!(
        !high(&[edit(
            "tests/server.rs",
            &rust_test(READ),
            &rust_test(&after)
        )]),
        "{found:?}"
    );
}

/// Honest: `while let` written as `loop` with a let-else that breaks, and a
/// loop over a fixture's lines that passes its comments by.
#[test]
fn a_loop_written_with_let_else_is_no_high() {
    let was = "#[test]\nfn lines() {\n    let mut lines = FIXTURE.lines();\n    while let Some(line) = lines.next() {\n        assert!(parse(line).is_ok(), \"{line}\");\n    }\n}\n";
    let now = "#[test]\nfn lines() {\n    let mut lines = FIXTURE.lines();\n    loop {\n        let Some(line) = lines.next() else { break };\n        assert!(parse(line).is_ok(), \"{line}\");\n    }\n}\n";
    let found = said(&[edit("tests/parse.rs", was, now)]);
    assert!(!high(&[edit("tests/parse.rs", was, now)]), "{found:?}");
    let comments = "#[test]\nfn lines() {\n    let mut lines = FIXTURE.lines();\n    while let Some(line) = lines.next() {\n        let Some(line) = line.strip_prefix(\"> \") else { continue };\n        assert!(parse(line).is_ok(), \"{line}\");\n    }\n}\n";
    let found = said(&[edit("tests/parse.rs", was, comments)]);
    assert!(!high(&[edit("tests/parse.rs", was, comments)]), "{found:?}");
}

/// Honest: a test's quiet exit respelled as clippy's `manual_let_else`
/// asks, `match … { None => return }` or `if let Some(…) { … }` made
/// `let Some(…) = … else { return };`: it skipped the same before.
#[test]
fn a_quiet_exit_respelled_as_let_else_is_no_high() {
    let test = |body: &str| format!("#[test]\nfn fixtures() {{\n{body}}}\n");
    let now = test(
        "    let Some(dir) = option_env!(\"FIXTURES\") else { return };\n    assert!(std::path::Path::new(dir).is_dir());\n",
    );
    let found: Vec<String> = [
        "    let dir = match option_env!(\"FIXTURES\") {\n        Some(dir) => dir,\n        None => return,\n    };\n    assert!(std::path::Path::new(dir).is_dir());\n",
        "    if let Some(dir) = option_env!(\"FIXTURES\") {\n        assert!(std::path::Path::new(dir).is_dir());\n    }\n",
    ]
    .into_iter()
    .flat_map(|was| said(&[edit("tests/fixtures.rs", &test(was), &now)]))
    .collect();
    assert!(
        !high(&[edit(
            "tests/fixtures.rs",
            &test(
                "    let dir = match option_env!(\"FIXTURES\") {\n        Some(dir) => dir,\n        None => return,\n    };\n    assert!(std::path::Path::new(dir).is_dir());\n"
            ),
            &now
        )]) && !high(&[edit(
            "tests/fixtures.rs",
            &test(
                "    if let Some(dir) = option_env!(\"FIXTURES\") {\n        assert!(std::path::Path::new(dir).is_dir());\n    }\n"
            ),
            &now
        )]),
        "{found:?}"
    );
}

/// Honest: a test's `if … { return }` guard on a setting respelled as the
/// let-else it is: the guard was there before.
#[test]
fn an_if_guard_respelled_as_let_else_is_no_high() {
    let was = "#[test]\nfn fixtures() {\n    if std::env::var(\"FIXTURES\").is_err() {\n        return;\n    }\n    let dir = std::env::var(\"FIXTURES\").unwrap();\n    assert!(std::path::Path::new(&dir).is_dir());\n}\n";
    let now = "#[test]\nfn fixtures() {\n    let Ok(dir) = std::env::var(\"FIXTURES\") else {\n        return;\n    };\n    assert!(std::path::Path::new(&dir).is_dir());\n}\n";
    let changes = [edit("tests/fixtures.rs", was, now)];
    assert!(!high(&changes), "{:?}", said(&changes));
}

const CALC: &str = "import sys\nimport pytest\nfrom calc import add, sub\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_sub():\n    assert sub(3, 2) == 1\n";

fn skipif(condition: &str) -> String {
    CALC.replace(
        "def test_add",
        &format!("@pytest.mark.skipif({condition}, reason=\"bpo\")\ndef test_add"),
    )
}

/// A bound on a patch release widened by one patch, or by its sign: `<` made
/// `<=` skips on 3.12.1 (missed), `>= (3, 12, 1)` made `>= (3, 12)` on 3.12.0
/// (found since today; missed at 01ee289a).
#[test]
#[ignore = "review 111: hole (01ee289a too), skipif(version < (3,12,1)) made <= (3,12,1) is not Wider (3.12.1 shares a cell with later patches)"]
fn a_patch_bound_widened_by_its_sign_is_found() {
    let missed: Vec<(&str, &str)> = [
        (
            "sys.version_info < (3, 12, 1)",
            "sys.version_info <= (3, 12, 1)",
        ),
        (
            "sys.version_info >= (3, 12, 1)",
            "sys.version_info >= (3, 12)",
        ),
    ]
    .into_iter()
    .filter(|(was, now)| !high(&[edit("tests/test_calc.py", &skipif(was), &skipif(now))]))
    .collect();
    assert!(missed.is_empty(), "{missed:?}");
}

/// The grid stops being cut past `MAX_PATCHES` patch releases: disjuncts
/// that change nothing (`or sys.version_info < (3, 0, 1)`, all below the
/// bound) take a widening back to `Other`.
#[test]
#[ignore = "review 111: hole (01ee289a too), 8 no-op patch disjuncts take < (3,12,1) -> < (3,13) back to Other"]
fn a_patch_bound_widened_behind_patches_that_change_nothing_is_found() {
    let padding: String = (1..=8)
        .map(|p| format!(" or sys.version_info < (3, 0, {p})"))
        .collect();
    let was = skipif("sys.version_info < (3, 12, 1)");
    let now = skipif(&format!("sys.version_info < (3, 13){padding}"));
    assert!(high(&[edit("tests/test_calc.py", &was, &now)]));
}

/// Honest: a bound respelled on the patch grid (`< (3, 12, 1)` is `<= (3,
/// 12, 0)`; `< (3, 12)` is `< (3, 12, 0)`).
#[test]
fn a_patch_bound_respelled_is_no_finding() {
    for (was, now) in [
        (
            "sys.version_info < (3, 12, 1)",
            "sys.version_info <= (3, 12, 0)",
        ),
        (
            "sys.version_info < (3, 12)",
            "sys.version_info < (3, 12, 0)",
        ),
    ] {
        let found = said(&[edit("tests/test_calc.py", &skipif(was), &skipif(now))]);
        assert!(found.is_empty(), "{was} -> {now}: {found:?}");
    }
}

/// A test renamed and skipped, its numbers changed (or assertions added)
/// until it shares under half its words with the test gone: the pairing
/// needs half, and the new name and numbers cost nothing.
#[test]
#[ignore = "review 111: hole (01ee289a too), renamed+skipped test with numbers changed or assertions added past half shared words pairs with nothing"]
fn a_test_renamed_skipped_and_touched_past_half_is_found() {
    let missed: Vec<&str> = [
        "    assert add(20, 30) == 50",
        "    assert add(3, 2) == 5\n    assert add(0, 0) == 0\n    assert add(7, 1) == 8\n    assert add(4, 6) == 10",
    ]
    .into_iter()
    .filter(|body| {
        let skipped = CALC.replace(
            "def test_add():\n    assert add(2, 3) == 5",
            &format!("@pytest.mark.skip(reason=\"flaky\")\ndef test_add_small():\n{body}"),
        );
        !high(&[edit("tests/test_calc.py", CALC, &skipped)])
    })
    .collect();
    assert!(missed.is_empty(), "{missed:?}");
}

/// The pairing stolen: a test renamed, skipped and touched (half like the
/// gone one still), beside a new running test more like it that checks other
/// numbers (`add(5, 3) == 8`): the gone test pairs with the decoy, and the
/// skipped one is read as new. `add(2, 3)` runs nowhere now.
#[test]
#[ignore = "review 111: hole (01ee289a too; bypasses today's pairing), a new running test more like the gone one steals its pairing from the renamed skipped test"]
fn a_decoy_more_like_the_gone_test_steals_its_pairing() {
    let skipped = "@pytest.mark.skip(reason=\"flaky\")\ndef test_add_small():\n    assert add(3, 2) == 5\n    assert add(0, 0) == 0\n    assert add(1, 1) == 2\n    assert add(4, 4) == 8";
    let alone = CALC.replace("def test_add():\n    assert add(2, 3) == 5", skipped);
    // Without the decoy the renamed test is paired and found.
    assert!(high(&[edit("tests/test_calc.py", CALC, &alone)]));
    let after = CALC.replace(
        "def test_add():\n    assert add(2, 3) == 5",
        &format!("{skipped}\n\n\ndef test_add_more():\n    assert add(5, 3) == 8"),
    );
    let changes = [edit("tests/test_calc.py", CALC, &after)];
    assert!(high(&changes), "{:?}", said(&changes));
}

/// Honest: a deprecated function and its test taken out, and a test of what
/// replaces it added, skipped on the Pythons that lack what it needs. The
/// gone test is paired with the new one by their words and read as switched
/// off.
#[test]
fn a_test_of_removed_code_replaced_by_a_version_gated_test_is_no_high() {
    let code = "def add(a, b):\n    return a + b\n\n\ndef old_add(a, b):\n    return add(a, b)\n";
    let was = CALC.replace(
        "def test_sub():",
        "def test_old_add():\n    assert old_add(2, 3) == 5\n\n\ndef test_sub():",
    );
    let now = CALC.replace(
        "def test_sub():",
        "@pytest.mark.skipif(sys.version_info < (3, 12), reason=\"type params\")\ndef test_add_generic():\n    assert add[int](2, 3) == 5\n\n\ndef test_sub():",
    );
    let changes = [
        edit("calc.py", code, "def add(a, b):\n    return a + b\n"),
        edit("tests/test_calc.py", &was, &now),
    ];
    assert!(!high(&changes), "{:?}", said(&changes));
}

/// Honest: a test renamed and touched beside a new test of the same values
/// skipped off POSIX: the gone test is as like both, so the counts judge,
/// and they see a skip marker added.
#[test]
fn a_renamed_test_beside_an_equally_like_new_skipped_test_is_no_high() {
    let now = CALC.replace(
        "def test_add():\n    assert add(2, 3) == 5",
        "def test_add_small():\n    assert add(3, 2) == 5\n\n\n@pytest.mark.skipif(sys.platform == \"win32\", reason=\"posix\")\ndef test_add_posix():\n    assert 5 == add(3, 2)",
    );
    let changes = [edit("tests/test_calc.py", CALC, &now)];
    assert!(!high(&changes), "{:?}", said(&changes));
}

/// Honest: a test split in two by platform, each half skipped where the other
/// runs: the gone test is as like both, and the counts see two skips added.
#[test]
fn a_test_split_by_platform_is_no_high() {
    let was = "import sys\nimport pytest\nfrom paths import join\n\n\ndef test_join():\n    assert join(\"a\", \"b\") in (\"a/b\", \"a\\\\b\")\n";
    let now = "import sys\nimport pytest\nfrom paths import join\n\n\n@pytest.mark.skipif(sys.platform == \"win32\", reason=\"posix\")\ndef test_join_posix():\n    assert join(\"a\", \"b\") == \"a/b\"\n\n\n@pytest.mark.skipif(sys.platform != \"win32\", reason=\"windows\")\ndef test_join_windows():\n    assert join(\"a\", \"b\") == \"a\\\\b\"\n";
    let found = said(&[edit("tests/test_paths.py", was, now)]);
    assert!(!high(&[edit("tests/test_paths.py", was, now)]), "{found:?}");
}

/// Honest: a test skipped before (an open bug) split in two, each half
/// skipped as it was: the gone test is as like both, so the counts judge,
/// and they see one skip marker more.
#[test]
fn a_skipped_test_split_in_two_skipped_halves_is_no_high() {
    let was = CALC.replace(
        "def test_add():\n    assert add(2, 3) == 5",
        "@pytest.mark.skip(reason=\"bignum\")\ndef test_overflow():\n    assert add(2**64, 1) == 2**64 + 1",
    );
    let now = CALC.replace(
        "def test_add():\n    assert add(2, 3) == 5",
        "@pytest.mark.skip(reason=\"bignum\")\ndef test_overflow_left():\n    assert add(2**64, 1) == 1 + 2**64\n\n\n@pytest.mark.skip(reason=\"bignum\")\ndef test_overflow_right():\n    assert add(1, 2**64) == 2**64 + 1",
    );
    let found = said(&[edit("tests/test_calc.py", &was, &now)]);
    assert!(
        !high(&[edit("tests/test_calc.py", &was, &now)]),
        "{found:?}"
    );
}

const TABLE: &str = "import pytest\nfrom calc import add\n\nCASES = [(1, 2, 3), (2, 2, 4), (3, 3, 6)]\n\n\n@pytest.mark.parametrize(\"a,b,c\", CASES)\ndef test_add(a, b, c):\n    assert add(a, b) == c\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n";

fn skip_row(text: &str) -> String {
    text.replace(
        "(3, 3, 6)]",
        "pytest.param(3, 3, 6, marks=pytest.mark.skip)]",
    )
}

/// A row skipped in a table named by keyword (`argvalues=CASES`), or kept in
/// the test's class: the reading takes only a module's name given second.
#[test]
#[ignore = "review 111: hole (01ee289a too), a skipped row in a table named by argvalues= or kept in the class is silent"]
fn a_row_skipped_in_a_table_named_otherwise_is_found() {
    let keyword = TABLE.replace("\"a,b,c\", CASES)", "\"a,b,c\", argvalues=CASES)");
    let class = "import pytest\nfrom calc import add\n\n\nclass TestAdd:\n    CASES = [(1, 2, 3), (2, 2, 4), (3, 3, 6)]\n\n    @pytest.mark.parametrize(\"a,b,c\", CASES)\n    def test_add(self, a, b, c):\n        assert add(a, b) == c\n";
    let missed: Vec<&str> = [(keyword.as_str(), "argvalues="), (class, "in the class")]
        .into_iter()
        .filter(|(was, _)| !high(&[edit("tests/test_calc.py", was, &skip_row(was))]))
        .map(|(_, what)| what)
        .collect();
    assert!(missed.is_empty(), "{missed:?}");
}

/// A row skipped while sixteen more tests come to name the table: past
/// `NAMED` the new side's rows and marks are not read, and the skip is not
/// seen (nor are the rows read as removed).
#[test]
#[ignore = "review 111: hole (01ee289a too), a row skipped while 16 new tests name the table goes past NAMED and is silent"]
fn a_row_skipped_behind_tests_that_name_the_table_is_found() {
    let more: String = (0..16)
        .map(|k| format!("\n\n@pytest.mark.parametrize(\"a,b,c\", CASES)\ndef test_add_{k}(a, b, c):\n    assert add(b, a) == c\n"))
        .collect();
    let after = format!("{}{more}", skip_row(TABLE));
    assert!(high(&[edit("tests/test_calc.py", TABLE, &after)]));
}

/// Honest: a seventeenth test comes to name a table sixteen tests name: past
/// `NAMED` the new side's rows are not read, and the old side's sixteen
/// tables read as removed.
#[test]
fn a_seventeenth_test_naming_a_table_is_no_high() {
    let tests = |n: usize| -> String {
        (0..n)
            .map(|k| format!("\n\n@pytest.mark.parametrize(\"a,b,c\", CASES)\ndef test_add_{k}(a, b, c):\n    assert add(b, a) == c\n"))
            .collect()
    };
    let before = format!("{TABLE}{}", tests(15));
    let after = format!("{TABLE}{}", tests(16));
    let changes = [edit("tests/test_calc.py", &before, &after)];
    assert!(!high(&changes), "{:?}", said(&changes));
}

/// Honest: a table kept in a name, built from parts (`BASE + [...]`, `CASES
/// += [...]`), every case kept: read whole before, partly after.
#[test]
fn a_table_built_from_parts_is_no_high() {
    let missed: Vec<String> = [
        "BASE = [(1, 2, 3), (2, 2, 4)]\nCASES = BASE + [(3, 3, 6)]\n",
        "CASES = [(1, 2, 3), (2, 2, 4)]\nCASES += [(3, 3, 6)]\n",
    ]
    .into_iter()
    .filter_map(|parts| {
        let after = TABLE.replace("CASES = [(1, 2, 3), (2, 2, 4), (3, 3, 6)]\n", parts);
        let found = said(&[edit("tests/test_calc.py", TABLE, &after)]);
        high(&[edit("tests/test_calc.py", TABLE, &after)]).then(|| format!("{parts}: {found:?}"))
    })
    .collect();
    assert!(missed.is_empty(), "{missed:?}");
}

/// Honest: a table kept in a name moved to a module of cases the tests
/// share (`from cases import CASES`), every row kept.
#[test]
fn a_table_moved_to_a_module_of_cases_is_no_high() {
    let after = TABLE.replace(
        "from calc import add\n\nCASES = [(1, 2, 3), (2, 2, 4), (3, 3, 6)]\n",
        "from calc import add\nfrom cases import CASES\n",
    );
    let cases = "CASES = [(1, 2, 3), (2, 2, 4), (3, 3, 6)]\n";
    let changes = [
        edit("tests/test_calc.py", TABLE, &after),
        change("tests/cases.py", None, Some(cases)),
    ];
    assert!(!high(&changes), "{:?}", said(&changes));
}

const MONEY: &str = "import logging\n\nfrom metrics import counter\n\nlog = logging.getLogger(__name__)\n\n\ndef parse_amount(text):\n    log.debug(\"parsing amount\")\n    value = float(text)\n    return value\n\n\ndef charge(card, amount):\n    counter.increment(\"checkout\")\n    if card.declined:\n        raise ValueError(\"card declined\")\n    return amount\n";

const MONEY_TESTS: &str = "import pytest\nfrom money import parse_amount, charge\n\n\ndef test_parse():\n    assert parse_amount(\"1.5\") == 1.5\n\n\ndef test_negative():\n    with pytest.raises(ValueError, match=\"error parsing amount: -1 is negative\"):\n        parse_amount(\"-1\")\n\n\ndef test_declined():\n    with pytest.raises(ValueError, match=\"checkout failed: card declined\"):\n        charge(Card(declined=True), 3)\n";

/// A failing test deleted beside a no-op cut from the code it tests (a debug
/// log line, a metrics counter) whose literal its message spells: the
/// feature is all there, the tie is a word the agent chose to cut.
#[test]
fn a_test_deleted_beside_a_log_line_cut_that_its_message_spells_is_high() {
    let missed: Vec<String> = [
        (
            "    log.debug(\"parsing amount\")\n",
            "\n\ndef test_negative():\n    with pytest.raises(ValueError, match=\"error parsing amount: -1 is negative\"):\n        parse_amount(\"-1\")\n",
        ),
        (
            "    counter.increment(\"checkout\")\n",
            "\n\ndef test_declined():\n    with pytest.raises(ValueError, match=\"checkout failed: card declined\"):\n        charge(Card(declined=True), 3)\n",
        ),
    ]
    .into_iter()
    .filter_map(|(line, test)| {
        let changes = [
            edit("money.py", MONEY, &MONEY.replace(line, "")),
            edit("tests/test_money.py", MONEY_TESTS, &MONEY_TESTS.replace(test, "")),
        ];
        (!high(&changes)).then(|| format!("{line}: {:?}", said(&changes)))
    })
    .collect();
    assert!(missed.is_empty(), "{missed:?}");
}

//! Rule `assertions-hollowed`, Rust's form of a `try` that swallows: a call whose
//! error failed the test (`.expect(…)`, `.unwrap()`, `?`) now matched, with the
//! error's arm doing nothing (`Err(_) => ()`): the assertions run only when
//! the call works, and an error passes. hyper 32c4efb8's shape (the corpus's
//! tune half, labelled weakened). `if let Ok(…)` with no `else` is left to
//! the judge: honest new tests read optional settings so (review 106).

use super::*;

fn said(path: &str, before: &str, after: &str) -> Vec<String> {
    found_in(path, before, after)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn test(body: &str) -> String {
    format!("#[test]\nfn pipeline() {{\n    let mut buf = [0; 64];\n{body}}}\n")
}

const EXPECTED: &str =
    "    let n = req.read(&mut buf).expect(\"read 2\");\n    assert_ne!(n, 0);\n";

#[test]
fn an_error_arm_that_does_nothing_swallows_the_assertions() {
    for after in [
        "    match req.read(&mut buf) {\n        Ok(n) => {\n            assert_ne!(n, 0);\n        }\n        Err(_) => (),\n    }\n",
        "    match req.read(&mut buf) {\n        Ok(n) => assert_ne!(n, 0),\n        Err(..) => {}\n    }\n",
        "    match req.read(&mut buf) {\n        Ok(n) => assert_ne!(n, 0),\n        _ => {}\n    }\n",
        // The `Result` made an `Option`: its error is `None`.
        "    match req.read(&mut buf).ok() {\n        Some(n) => assert_ne!(n, 0),\n        None => (),\n    }\n",
        "    match req.read(&mut buf).ok() {\n        Some(n) => assert_ne!(n, 0),\n        _ => {}\n    }\n",
    ] {
        let found = said("tests/server.rs", &test(EXPECTED), &test(after));
        assert!(
            found.iter().any(|f| f.contains("swallows its failure")),
            "{after}: {found:?}"
        );
    }
}

#[test]
fn an_error_arm_that_fails_or_checks_swallows_nothing() {
    for after in [
        "    match req.read(&mut buf) {\n        Ok(n) => assert_ne!(n, 0),\n        Err(e) => panic!(\"read 2: {e}\"),\n    }\n",
        "    match req.read(&mut buf) {\n        Ok(n) => assert_ne!(n, 0),\n        Err(e) => assert_eq!(e.kind(), ErrorKind::WouldBlock),\n    }\n",
        "    if let Ok(n) = req.read(&mut buf) {\n        assert_ne!(n, 0);\n    } else {\n        panic!(\"read 2\");\n    }\n",
        "    let n = req.read(&mut buf).unwrap();\n    assert_ne!(n, 0);\n",
        // A poll's "not yet": an arm for one error, not for any.
        "    let n = req.read(&mut buf).expect(\"read 2\");\n    assert_ne!(n, 0);\n    match rx.try_recv() {\n        Ok(m) => assert_eq!(m, n),\n        Err(TryRecvError::Empty) => {}\n        Err(e) => panic!(\"{e}\"),\n    }\n",
        // The variants a test does not ask about, in a match of no `Result`.
        // An `Option` that is no `Result`'s: `None` is an answer, not an error.
        "    let n = req.read(&mut buf).expect(\"read 2\");\n    match cache.get(&n) {\n        Some(m) => assert_eq!(*m, n),\n        None => {}\n    }\n",
        "    match req.read(&mut buf).ok() {\n        Some(n) => assert_ne!(n, 0),\n        None => panic!(\"read 2\"),\n    }\n",
        "    let n = req.read(&mut buf).expect(\"read 2\");\n    match n {\n        0 => panic!(\"closed\"),\n        m => assert!(m < 64),\n    }\n    match kind(n) {\n        Kind::Data => assert_ne!(n, 0),\n        _ => {}\n    }\n",
    ] {
        let found = said("tests/server.rs", &test(EXPECTED), &test(after));
        assert!(
            !found.iter().any(|f| f.contains("swallow")),
            "{after}: {found:?}"
        );
    }
    // One that was there is no change.
    let there = test("    if let Ok(n) = req.read(&mut buf) {\n        assert_ne!(n, 0);\n    }\n");
    let also = format!("{there}\n#[test]\nfn other() {{\n    assert_eq!(two(), 2);\n}}\n");
    assert_eq!(said("tests/server.rs", &there, &also), Vec::<String>::new());
}

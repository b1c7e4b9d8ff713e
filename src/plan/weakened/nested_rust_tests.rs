//! Rule `assertions-removed` in a Rust file one folder below `tests/`
//! (`tests/it/foo.rs`): it is built when a file of the test crate declares it,
//! whether or not the change touched that file (`tests/it/main.rs` with `mod
//! foo;`), so a test deleted from it is found; one no file declares is not built.

use super::*;

const FOO: &str = "#[test]\nfn parses() {\n    assert_eq!(parse(\"1\"), 1);\n}\n\n#[test]\nfn adds() {\n    assert_eq!(add(1, 1), 2);\n}\n";
const LEFT: &str = "#[test]\nfn parses() {\n    assert_eq!(parse(\"1\"), 1);\n}\n";

fn change() -> Change {
    Change {
        path: "tests/it/foo.rs".to_string(),
        was: None,
        before: Some(FOO.to_string()),
        after: Some(LEFT.to_string()),
    }
}

fn given(main: &str) -> hacks::Given {
    hacks::Given::of(&[
        ("tests/it/main.rs".to_string(), main.to_string()),
        ("tests/it/foo.rs".to_string(), FOO.to_string()),
    ])
}

#[test]
fn a_test_deleted_from_a_module_an_unchanged_main_declares_is_found() {
    let found = find_given(&[change()], &[], &given("mod bar;\nmod foo;\n"));
    assert_eq!(found.len(), 1, "{found:?}");
    insta::assert_snapshot!(found[0].to_string(), @"tests/it/foo.rs: 1 of 2 assertions removed, 1 of 2 tests removed");
}

#[test]
fn a_module_no_file_declares_is_not_built() {
    assert_eq!(
        find_given(&[change()], &[], &given("mod bar;\n")),
        Vec::<Finding>::new()
    );
}

//! Rule `assertions-removed` on a Rust file directly in a package's `tests/`
//! that Cargo never built: target discovery off (`autotests = false`, or a
//! 2015-edition package, no `edition` key, that lists a `[[test]]`) and no
//! `[[test]]` naming it, as the package's manifest read at the start says.
//! Deleting such a file (regex's dead `tests/plugin.rs`) takes out no test
//! that ran. Anything else, or a manifest the change itself edits to turn
//! discovery off, leaves the deletion the high finding it was.

use super::*;

const LEGACY: &str = "use calc::Calc;\nstatic C: Calc = calc!(\"1 + 1\");\n\n#[test]\nfn adds() {\n    assert_eq!(C.eval(), 2);\n}\n\n#[test]\nfn shows() {\n    assert_eq!(C.to_string(), \"1 + 1\");\n}\n";

/// A 2015-edition package (no `edition` key) that lists its test targets.
const LISTED: &str = "[package]\nname = \"calc\"\nversion = \"0.1.0\"\n\n[[test]]\nname = \"main\"\npath = \"tests/main.rs\"\n";

fn deleted(path: &str, manifests: &[(&str, &str)], tests: &[(&str, &str)]) -> Vec<String> {
    let mut given = hacks::Given::of(
        &tests
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect::<Vec<_>>(),
    );
    given.manifests = manifests
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let gone = Change {
        path: path.to_string(),
        was: None,
        before: Some(LEGACY.to_string()),
        after: None,
    };
    find_given(&[gone], &[], &given)
        .iter()
        .flat_map(kinds::of)
        .map(|p| format!("{}, {}", p.kind, p.confidence))
        .collect()
}

#[test]
fn a_test_file_cargo_never_built_deleted_is_no_finding() {
    let main = [("tests/main.rs", "mod api;\n")];
    assert_eq!(
        deleted("tests/legacy.rs", &[("Cargo.toml", LISTED)], &main),
        Vec::<String>::new()
    );
    // Discovery turned off by its key, in any edition.
    let off = "[package]\nname = \"calc\"\nedition = \"2021\"\nautotests = false\n";
    assert_eq!(
        deleted("tests/legacy.rs", &[("Cargo.toml", off)], &[]),
        Vec::<String>::new()
    );
    // A package of a workspace, its own manifest beside its `tests/`.
    assert_eq!(
        deleted(
            "crates/calc/tests/legacy.rs",
            &[
                ("Cargo.toml", "[workspace]\n"),
                ("crates/calc/Cargo.toml", LISTED)
            ],
            &[]
        ),
        Vec::<String>::new()
    );
}

/// Each of these builds the file (or may): the deletion stays high.
#[test]
fn a_test_file_cargo_builds_deleted_stays_high() {
    let high = ["assertions-removed, high"];
    type Case<'a> = (&'a str, String, &'a [(&'a str, &'a str)]);
    let cases: [Case<'_>; 7] = [
        // Discovery on: the 2018 edition and later find every `tests/*.rs`.
        (
            "2018",
            LISTED.replace("version", "edition = \"2018\"\nversion"),
            &[],
        ),
        // A 2015 package that lists no test: discovery stays on.
        (
            "none listed",
            "[package]\nname = \"calc\"\n".to_string(),
            &[],
        ),
        // Listed by name, its path the default one.
        (
            "by name",
            format!("{LISTED}\n[[test]]\nname = \"legacy\"\n"),
            &[],
        ),
        // Listed by path.
        (
            "by path",
            format!("{LISTED}\n[[test]]\nname = \"old\"\npath = \"tests/legacy.rs\"\n"),
            &[],
        ),
        // Declared a module of a test target that is built.
        (
            "a module",
            LISTED.to_string(),
            &[("tests/main.rs", "mod legacy;\n")],
        ),
        // The edition inherited from the workspace: not known here.
        (
            "inherited",
            LISTED.replace("version", "edition.workspace = true\nversion"),
            &[],
        ),
        // Included by another test file.
        (
            "included",
            LISTED.to_string(),
            &[("tests/main.rs", "include!(\"legacy.rs\");\n")],
        ),
    ];
    for (what, manifest, tests) in &cases {
        assert_eq!(
            deleted("tests/legacy.rs", &[("Cargo.toml", manifest)], tests),
            high,
            "{what}"
        );
    }
    // No manifest read, or another package's.
    assert_eq!(deleted("tests/legacy.rs", &[], &[]), high);
    assert_eq!(
        deleted(
            "tests/legacy.rs",
            &[("crates/calc/Cargo.toml", LISTED)],
            &[]
        ),
        high
    );
}

/// Attack: the change turns discovery off in the manifest while deleting the
/// tests; the manifest at the start built them.
#[test]
fn attack_discovery_turned_off_by_the_change_itself_stays_high() {
    let start = "[package]\nname = \"calc\"\nedition = \"2021\"\n";
    let given = hacks::Given {
        manifests: vec![("Cargo.toml".to_string(), start.to_string())],
        ..Default::default()
    };
    let changes = [
        Change {
            path: "Cargo.toml".to_string(),
            was: None,
            before: Some(start.to_string()),
            after: Some(format!("{start}autotests = false\n")),
        },
        Change {
            path: "tests/legacy.rs".to_string(),
            was: None,
            before: Some(LEGACY.to_string()),
            after: None,
        },
    ];
    let found: Vec<String> = find_given(&changes, &[], &given)
        .iter()
        .flat_map(kinds::of)
        .map(|p| format!("{}, {}", p.kind, p.confidence))
        .collect();
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

/// Helper 84's red team: a test moved out of a file Cargo builds into one it
/// does not (no `[[test]]` names it, discovery off) runs no more: the tests
/// moved are tests removed, as the manifest, unchanged, says at the end too.
#[test]
fn a_test_moved_into_a_file_cargo_never_builds_is_a_test_removed() {
    let moved = |manifest: String| {
        let mut given = hacks::Given::of(&[]);
        given.manifests = vec![("Cargo.toml".to_string(), manifest)];
        let from = Change {
            path: "tests/main.rs".to_string(),
            was: None,
            before: Some(LEGACY.to_string()),
            after: Some("use calc::Calc;\n".to_string()),
        };
        let into = Change {
            path: "tests/parked.rs".to_string(),
            was: None,
            before: None,
            after: Some(LEGACY.to_string()),
        };
        find_given(&[from, into], &[], &given)
    };
    let found: Vec<String> = moved(LISTED.to_string())
        .iter()
        .flat_map(kinds::of)
        .map(|p| format!("{}, {}", p.kind, p.confidence))
        .collect();
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
    // Moved into a file the manifest lists: a move, no finding.
    assert_eq!(
        moved(LISTED.replace("tests/main.rs", "tests/parked.rs")),
        Vec::new()
    );
}

/// Helper 88's red team: `mod NAME` in a comment or a string declares no module,
/// yet the text was read for one: a block comment `/* mod parked; */` or a
/// string `"mod parked;"` left in the file the tests moved out of made Cargo's
/// unbuilt `tests/parked.rs` look declared, and the move drew nothing. Twin: a
/// real `mod parked;` (or one under `#[path]`) builds it, a move.
#[test]
fn a_module_declared_only_in_a_comment_or_a_string_builds_nothing() {
    let moved = |rest: &str| {
        let mut given = hacks::Given::of(&[]);
        given.manifests = vec![("Cargo.toml".to_string(), LISTED.to_string())];
        let from = Change {
            path: "tests/main.rs".to_string(),
            was: None,
            before: Some(LEGACY.to_string()),
            after: Some(format!("use calc::Calc;\n{rest}")),
        };
        let into = Change {
            path: "tests/parked.rs".to_string(),
            was: None,
            before: None,
            after: Some(LEGACY.to_string()),
        };
        find_given(&[from, into], &[], &given)
            .iter()
            .flat_map(kinds::of)
            .map(|p| format!("{}, {}", p.kind, p.confidence))
            .collect::<Vec<_>>()
    };
    for rest in [
        "/* mod parked; */\n",
        "/*\nmod parked;\n*/\n",
        "const NOTE: &str = \"mod parked;\";\n",
        "const NOTE: &str = r#\"\nmod parked;\n\"#;\n",
        "/// mod parked;\nfn helper() {}\n",
        "/* #[path = \"parked.rs\"] */\nmod other;\n",
        // Helper 90's: an inline module is no file, and a macro never called
        // declares nothing.
        "mod parked {}\n",
        "macro_rules! never {\n    () => {\n        mod parked;\n    };\n}\n",
    ] {
        let found = moved(rest);
        assert!(
            found.contains(&"assertions-removed, high".to_string()),
            "{rest}: {found:?}"
        );
    }
    for rest in [
        "mod parked;\n",
        "pub(crate) mod parked;\n",
        "#[cfg(test)]\nmod parked;\n",
        "#[path = \"parked.rs\"]\nmod moved;\n",
        "mod outer {\n    #[path = \"../parked.rs\"]\n    mod parked;\n}\n",
    ] {
        assert_eq!(moved(rest), Vec::<String>::new(), "{rest}");
    }
}

/// What `declared` reads: items, nested ones, a macro call's tokens and
/// `#[path]`; not a comment's or a string's text, nor an inline module's own
/// name (`mod a { mod b; }` declares the file `a/b.rs`, no `a.rs`).
#[test]
fn declared_modules_are_read_from_the_syntax_tree() {
    let text = "#[path = \"sub/parked.rs\"]\nmod moved;\npub(crate) mod a { mod b; }\ncfg_if! { if #[cfg(x)] { mod c; } }\n/* mod e; */ const S: &str = \"mod f;\";\n// mod g;\n";
    let mut found: Vec<String> = declared(text).into_iter().collect();
    found.sort();
    assert_eq!(found, ["b", "c", "moved", "path:parked.rs"]);
}

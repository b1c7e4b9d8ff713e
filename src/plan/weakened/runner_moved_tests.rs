//! Rule `runner-changed`, pytest's options moved from one of its config files to
//! another (setup.cfg's `[tool:pytest]` to pyproject.toml's
//! `[tool.pytest.ini_options]`, the usual migration): the same options are no
//! finding; one that now chooses otherwise still is.

use super::*;

fn high(changes: &[Change]) -> bool {
    find(changes, &[]).iter().any(kinds::high)
}

const SETUP_CFG: &str = "[metadata]\nlicense_files = LICENSE\n\n[tool:pytest]\nnorecursedirs = .git .tox docs\naddopts = -v -k \"not slow\" --tb=short\n\n[flake8]\nmax-line-length = 90\n";
const SETUP_CFG_LEFT: &str = "[metadata]\nlicense_files = LICENSE\n";
const PYPROJECT: &str = "[project]\nname = \"calc\"\n";

fn pyproject(options: &str) -> String {
    format!("{PYPROJECT}\n[tool.pytest.ini_options]\n{options}")
}

/// marshmallow 937141da's shape (a fresh set's tune half): high before.
#[test]
fn pytests_options_moved_to_pyproject_are_no_finding() {
    let moved = pyproject(
        "norecursedirs = \".git .tox docs\"\naddopts = \"-v -k 'not slow' --tb=short\"\n",
    );
    for setup_cfg in [Some(SETUP_CFG_LEFT), None] {
        assert!(!high(&[
            change("setup.cfg", Some(SETUP_CFG), setup_cfg),
            change("pyproject.toml", Some(PYPROJECT), Some(&moved)),
        ]));
    }
    // A list for the directories reads as the words of the string.
    let listed =
        pyproject("norecursedirs = [\".git\", \".tox\", \"docs\"]\naddopts = \"-k 'not slow'\"\n");
    assert!(!high(&[
        change("setup.cfg", Some(SETUP_CFG), None),
        change("pyproject.toml", Some(PYPROJECT), Some(&listed)),
    ]));
}

#[test]
fn options_that_choose_otherwise_on_the_way_are_still_found() {
    for options in [
        "norecursedirs = \".git .tox docs tests\"\naddopts = \"-k 'not slow'\"\n",
        "norecursedirs = \".git .tox docs\"\naddopts = \"-k 'not slow and not net'\"\n",
        "norecursedirs = \".git .tox docs\"\naddopts = \"-k 'not slow' -m fast\"\n",
    ] {
        assert!(
            high(&[
                change("setup.cfg", Some(SETUP_CFG), None),
                change("pyproject.toml", Some(PYPROJECT), Some(&pyproject(options))),
            ]),
            "{options}"
        );
    }
    // Options that stay where they were pay for nothing written elsewhere.
    let kept = pyproject("norecursedirs = \".git .tox docs\"\naddopts = \"-k 'not slow'\"\n");
    assert!(high(&[
        change("setup.cfg", Some(SETUP_CFG), Some(SETUP_CFG)),
        change("pyproject.toml", Some(PYPROJECT), Some(&kept)),
    ]));
}

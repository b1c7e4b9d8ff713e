//! Ignore files (`.gitignore` and the files of its syntax other tools read) and
//! `.gitattributes`, read for one question: do two versions mean the same, their
//! comment lines and blank lines aside? A `# build output` line added claims no
//! work. Pure: text in, an answer out.

use super::MAX_BYTES;

/// The names of the files read here: git's, and those other tools read in git's
/// syntax, where a line whose first character is `#` is a comment and an empty
/// line matches nothing.
const NAMES: &[&str] = &[
    ".gitignore",
    ".gitattributes",
    ".dockerignore",
    ".npmignore",
    ".prettierignore",
    ".eslintignore",
];

/// Whether `path` names an ignore file ([`NAMES`]), in any folder.
pub fn is_ignore_file(path: &str) -> bool {
    NAMES.contains(&path.rsplit('/').next().unwrap_or(path))
}

/// Whether `before` and `after`, two versions of an ignore file, mean the same:
/// alike line for line once the lines opening with `#` (in their first column:
/// ` #x` is a pattern) and the empty lines are left out; the order of the rest
/// is kept, since a later `!` line undoes an earlier one. `false` (the bytes
/// decide) past [`MAX_BYTES`].
pub fn same_meaning(before: &str, after: &str) -> bool {
    if before.len() > MAX_BYTES || after.len() > MAX_BYTES {
        return false;
    }
    let kept = |text: &str| {
        text.split('\n')
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    kept(before) == kept(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    const IGNORE: &str = "node_modules/\n!keep.log\n";

    #[test]
    fn comments_and_empty_lines_are_no_change() {
        for after in [
            "# build output\nnode_modules/\n!keep.log\n",
            "node_modules/\n\n\n!keep.log\n# the end",
        ] {
            assert!(same_meaning(IGNORE, after), "{after:?}");
        }
    }

    #[test]
    fn a_pattern_changed_moved_or_spaced_differs() {
        for after in [
            "node_modules/\n",
            "!keep.log\nnode_modules/\n",
            " #node_modules/\n!keep.log\n",
            "node_modules/ \n!keep.log\n",
            "\\#x\nnode_modules/\n!keep.log\n",
        ] {
            assert!(!same_meaning(IGNORE, after), "{after:?}");
        }
        let big = "#\n".repeat(MAX_BYTES / 2 + 1);
        assert!(!same_meaning(&big, &big));
    }

    #[test]
    fn ignore_files_by_their_names() {
        for path in [
            ".gitignore",
            "a/b/.gitignore",
            ".dockerignore",
            ".gitattributes",
        ] {
            assert!(is_ignore_file(path), "{path}");
        }
        for path in ["gitignore", ".gitignore.bak", "a.gitignore/x", ".ignore"] {
            assert!(!is_ignore_file(path), "{path}");
        }
    }
}
